import type { ApplyPatchApprovalResponse } from './generated/protocol/ApplyPatchApprovalResponse.js';
import type { ExecCommandApprovalResponse } from './generated/protocol/ExecCommandApprovalResponse.js';
import type { ServerRequest as ProtocolServerRequest } from './generated/protocol/ServerRequest.js';
import type { CommandExecutionRequestApprovalResponse } from './generated/protocol/v2/CommandExecutionRequestApprovalResponse.js';
import type { DynamicToolCallResponse } from './generated/protocol/v2/DynamicToolCallResponse.js';
import type { FileChangeRequestApprovalResponse } from './generated/protocol/v2/FileChangeRequestApprovalResponse.js';
import type { McpServerElicitationRequestResponse } from './generated/protocol/v2/McpServerElicitationRequestResponse.js';
import type { PermissionsRequestApprovalResponse } from './generated/protocol/v2/PermissionsRequestApprovalResponse.js';
import type { ServerRequest, ServerRequestReply } from './json-rpc-connection.js';

/** The JSON-RPC error code sent for server requests that have no safe declining result. */
export const INTERACTION_REFUSED_CODE = -32601;

const refusal = { code: INTERACTION_REFUSED_CODE, message: 'client does not support interaction' };

// Every server request method of the protocol, each with the answer that grants and runs nothing.
// Typed against the generated protocol, so a renamed or added method fails the type check.
const REPLIES: { [Method in ProtocolServerRequest['method']]: ServerRequestReply } = {
  'item/commandExecution/requestApproval': {
    result: { decision: 'decline' } satisfies CommandExecutionRequestApprovalResponse,
  },
  'item/fileChange/requestApproval': {
    result: { decision: 'decline' } satisfies FileChangeRequestApprovalResponse,
  },
  'item/permissions/requestApproval': {
    result: { permissions: {}, scope: 'turn' } satisfies PermissionsRequestApprovalResponse,
  },
  'mcpServer/elicitation/request': {
    result: { action: 'cancel', content: null, _meta: null } satisfies McpServerElicitationRequestResponse,
  },
  'item/tool/call': { result: { contentItems: [], success: false } satisfies DynamicToolCallResponse },
  'item/tool/requestUserInput': { error: refusal },
  'account/chatgptAuthTokens/refresh': { error: refusal },
  'attestation/generate': { error: refusal },
  applyPatchApproval: { result: { decision: 'abort' } satisfies ApplyPatchApprovalResponse },
  execCommandApproval: { result: { decision: 'abort' } satisfies ExecCommandApprovalResponse },
};

/** The server request methods this client knows, each answered by {@link refuseServerRequest}. */
export const KNOWN_SERVER_REQUEST_METHODS = Object.keys(REPLIES) as ProtocolServerRequest['method'][];

/**
 * The reply that declines a server request without granting anything: the declining result where
 * the protocol has one, else a JSON-RPC error. Unknown methods get the error too.
 */
export function refuseServerRequest(request: ServerRequest): ServerRequestReply {
  return Object.hasOwn(REPLIES, request.method)
    ? REPLIES[request.method as ProtocolServerRequest['method']]
    : { error: refusal };
}
