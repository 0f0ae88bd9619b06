import { describe, expect, it } from 'vitest';
import { webLinkProblem } from './web-link.js';

describe('webLinkProblem', () => {
  it('lets https pages and http on this machine through', () => {
    for (const link of [
      'https://auth.example.com/authorize?x=1',
      'http://127.0.0.1:8080/authorize',
      'http://127.5.0.1/a',
      'http://localhost:3000/a',
      'http://[::1]:9/a',
      'http://2130706433/a',
      'http://[::ffff:127.0.0.1]/a',
    ])
      expect(webLinkProblem(link), link).toBeUndefined();
  });

  it('refuses other schemes, plain http elsewhere and what does not parse', () => {
    expect(webLinkProblem('file:///etc/passwd')).toBe('it is a file link, not an https page');
    expect(webLinkProblem('javascript:alert(1)')).toMatch(/javascript link/);
    expect(webLinkProblem('vscode://open?x')).toMatch(/vscode link/);
    expect(webLinkProblem('http://auth.example.com/a')).toMatch(/plain http to another machine/);
    expect(webLinkProblem('http://10.0.0.1/a')).toMatch(/plain http/);
    expect(webLinkProblem('http://[::2]/a')).toMatch(/plain http/);
    expect(webLinkProblem('http://127.evil.example/a')).toMatch(/plain http/);
    expect(webLinkProblem('http://localhost.example.com/a')).toMatch(/plain http/);
    expect(webLinkProblem('not a url')).toBe('it is not a valid URL');
  });
});
