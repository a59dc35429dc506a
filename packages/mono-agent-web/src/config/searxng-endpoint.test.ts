import { describe, expect, it } from 'vitest';
import { fileField } from './config-field.js';
import { ConfigProblems } from './config-problem.js';
import { checkSearxngEndpoint, isLoopbackHost } from './searxng-endpoint.js';

const field = fileField('tools.web.search.searxng.endpoint');

function check(text: string) {
  const problems = new ConfigProblems();
  const value = checkSearxngEndpoint(text, field, problems);
  return { value, rules: problems.list.map((problem) => problem.rule), problems: problems.list };
}

describe('checkSearxngEndpoint', () => {
  it('accepts loopback http endpoints, with or without a path', () => {
    expect(check('http://127.0.0.1:8088')).toEqual({
      value: 'http://127.0.0.1:8088/',
      rules: [],
      problems: [],
    });
    expect(check('http://127.9.9.9:8088/searxng/').value).toBe('http://127.9.9.9:8088/searxng/');
    expect(check('http://[::1]:8088').value).toBe('http://[::1]:8088/');
    expect(check('http://localhost').value).toBe('http://localhost/');
  });

  it('gives each broken rule its own name', () => {
    expect(check('not a url').rules).toEqual(['url']);
    expect(check('https://127.0.0.1:8088').rules).toEqual(['scheme']);
    expect(check('http://user:pass@127.0.0.1:8088').rules).toEqual(['credentials']);
    expect(check('http://@127.0.0.1:8088').rules).toEqual(['credentials']);
    expect(check('http://127.0.0.1:8088/?format=json').rules).toEqual(['query']);
    expect(check('http://127.0.0.1:8088/?').rules).toEqual(['query']);
    expect(check('http://127.0.0.1:8088/#top').rules).toEqual(['fragment']);
    expect(check('http://searx.example.org').rules).toEqual(['loopback']);
    expect(check('http://192.168.1.10:8088').rules).toEqual(['loopback']);
    expect(check('http://0.0.0.0:8088').rules).toEqual(['loopback']);
  });

  it('reports every broken rule of one value, without repeating its credentials', () => {
    const result = check('https://admin:hunter2@searx.example.org/?q=x#f');
    expect(result.value).toBeUndefined();
    expect(result.rules).toEqual(['scheme', 'credentials', 'query', 'fragment', 'loopback']);
    for (const problem of result.problems) {
      expect(problem.message).toMatch(/^tools\.web\.search\.searxng\.endpoint /);
      expect(problem.message).not.toContain('hunter2');
      expect(problem.message).not.toContain('admin');
    }
  });
});

describe('isLoopbackHost', () => {
  it('knows 127.0.0.0/8, ::1 and localhost only', () => {
    expect(['127.0.0.1', '127.255.0.1', '[::1]', 'localhost'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['10.0.0.1', '[::ffff:7f00:1]', 'localhost.example', 'example.com'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
