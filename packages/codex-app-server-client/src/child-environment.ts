// Names that carry credentials by convention. The child must sign in only through its own stored
// ChatGPT login, so none of these is passed down: an OPENAI_API_KEY would switch Codex to API billing.
const CREDENTIAL_NAME =
  /API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|SESSION|PRIVATE_?KEY|ACCESS_?KEY|AUTH|^OPENAI_|^AZURE_OPENAI_|^CODEX_(?!HOME$)/i;

/** Whether an environment variable name looks like it carries a credential. */
export function isCredentialVariable(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/**
 * The environment `codex app-server` starts with: `base` without credential-looking variables.
 * `CODEX_HOME` survives, so the child finds the operator's own sign-in.
 */
export function createChildEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isCredentialVariable(name)) continue;
    environment[name] = value;
  }
  return environment;
}
