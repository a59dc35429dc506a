import { describe, expect, it } from 'vitest';
import { fileField } from './config-field.js';
import { ConfigProblems } from './config-problem.js';
import { checkOllamaBaseUrl, checkOllamaOriginRules, classifyOllamaOrigin } from './ollama-origin.js';

const baseUrlField = fileField('tools.web.search.ollama.baseUrl');

function shape(text: string) {
  const problems = new ConfigProblems();
  const value = checkOllamaBaseUrl(text, baseUrlField, problems);
  return { value, rules: problems.list.map((problem) => problem.rule) };
}

function rules(baseUrl: string, apiKeyEnv: string | undefined, trustPublicUrl: boolean) {
  const problems = new ConfigProblems();
  checkOllamaOriginRules(
    {
      baseUrl: { value: baseUrl, field: baseUrlField },
      apiKeyEnv: { value: apiKeyEnv, field: fileField('tools.web.search.ollama.apiKeyEnv') },
      trustPublicUrl: { value: trustPublicUrl, field: fileField('tools.web.search.ollama.trustPublicUrl') },
    },
    problems,
  );
  return problems.list.map((problem) => `${problem.key}:${problem.rule}`);
}

describe('checkOllamaBaseUrl', () => {
  it('normalises an origin', () => {
    expect(shape('http://127.0.0.1:11434/')).toEqual({ value: 'http://127.0.0.1:11434', rules: [] });
    expect(shape('https://ollama.com:443')).toEqual({ value: 'https://ollama.com', rules: [] });
    expect(shape('HTTPS://Ollama.COM')).toEqual({ value: 'https://ollama.com', rules: [] });
  });

  it('refuses anything but a bare http(s) origin, one rule per defect', () => {
    expect(shape('ollama').rules).toEqual(['url']);
    expect(shape('ftp://127.0.0.1').rules).toEqual(['scheme']);
    expect(shape('http://me:pw@127.0.0.1:11434').rules).toEqual(['credentials']);
    expect(shape('http://127.0.0.1:11434/api').rules).toEqual(['path']);
    expect(shape('http://127.0.0.1:11434/?a=1').rules).toEqual(['query']);
    expect(shape('http://127.0.0.1:11434/#a').rules).toEqual(['fragment']);
  });
});

describe('classifyOllamaOrigin', () => {
  it('treats exactly https://ollama.com as hosted, local addresses as local, the rest as custom', () => {
    expect(classifyOllamaOrigin('https://ollama.com')).toBe('hosted');
    expect(classifyOllamaOrigin('http://ollama.com')).toBe('custom');
    expect(classifyOllamaOrigin('https://www.ollama.com')).toBe('custom');
    expect(classifyOllamaOrigin('https://ollama.com:8443')).toBe('custom');
    for (const origin of [
      'http://localhost:11434',
      'http://127.0.0.1:11434',
      'http://[::1]:11434',
      'http://10.1.2.3:11434',
      'http://192.168.0.2',
      'http://172.16.0.9',
      'http://[fd00::1]',
    ]) {
      expect(classifyOllamaOrigin(origin), origin).toBe('local');
    }
    expect(classifyOllamaOrigin('https://ollama.internal.example')).toBe('custom');
    expect(classifyOllamaOrigin('http://8.8.8.8')).toBe('custom');
  });
});

describe('checkOllamaOriginRules', () => {
  it('requires apiKeyEnv for the hosted origin, and nothing else there', () => {
    expect(rules('https://ollama.com', 'OLLAMA_API_KEY', false)).toEqual([]);
    expect(rules('https://ollama.com', undefined, false)).toEqual([
      'tools.web.search.ollama.apiKeyEnv:api_key_env_required',
    ]);
  });

  it('never lets a key variable be named for another origin', () => {
    expect(rules('http://127.0.0.1:11434', 'OLLAMA_API_KEY', false)).toEqual([
      'tools.web.search.ollama.apiKeyEnv:api_key_env_origin',
    ]);
    expect(rules('https://search.example.com', 'OLLAMA_API_KEY', true)).toEqual([
      'tools.web.search.ollama.apiKeyEnv:api_key_env_origin',
    ]);
  });

  it('allows plain http locally', () => {
    expect(rules('http://127.0.0.1:11434', undefined, false)).toEqual([]);
    expect(rules('http://192.168.1.20:11434', undefined, false)).toEqual([]);
    expect(rules('http://localhost:11434', undefined, false)).toEqual([]);
  });

  it('requires https and explicit trust for a custom public origin', () => {
    expect(rules('https://search.example.com', undefined, true)).toEqual([]);
    expect(rules('https://search.example.com', undefined, false)).toEqual([
      'tools.web.search.ollama.trustPublicUrl:trust_required',
    ]);
    expect(rules('http://search.example.com', undefined, true)).toEqual([
      'tools.web.search.ollama.baseUrl:https_required',
    ]);
    expect(rules('http://search.example.com', undefined, false)).toEqual([
      'tools.web.search.ollama.baseUrl:https_required',
      'tools.web.search.ollama.trustPublicUrl:trust_required',
    ]);
  });
});
