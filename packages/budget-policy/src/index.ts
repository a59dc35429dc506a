export { FAILURE_CODES, type FailureCode, isFailureCode } from './failure-code.js';
export { WebToolError, type WebToolErrorOptions } from './web-tool-error.js';
