import { describe, expect, it } from 'vitest';
import { createChildEnvironment, isCredentialVariable } from './child-environment.js';

describe('createChildEnvironment', () => {
  it('drops credential-looking variables and keeps the rest, CODEX_HOME included', () => {
    const environment = createChildEnvironment({
      PATH: '/usr/bin',
      HOME: '/home/u',
      CODEX_HOME: '/home/u/.codex',
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: 'sk-x',
      OPENAI_BASE_URL: 'https://x',
      OPENAI_ORG_ID: 'org',
      CODEX_API_KEY: 'k',
      CODEX_ACCESS_TOKEN: 't',
      AZURE_OPENAI_ENDPOINT: 'e',
      GITHUB_TOKEN: 'g',
      AWS_SECRET_ACCESS_KEY: 'a',
      npm_config__authToken: 'n',
      DB_PASSWORD: 'p',
      UNSET: undefined,
    });
    expect(environment).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      CODEX_HOME: '/home/u/.codex',
      LANG: 'C.UTF-8',
    });
  });

  it('recognizes names case-insensitively', () => {
    expect(isCredentialVariable('my_api_key')).toBe(true);
    expect(isCredentialVariable('Session_Token')).toBe(true);
    expect(isCredentialVariable('TERM')).toBe(false);
  });
});
