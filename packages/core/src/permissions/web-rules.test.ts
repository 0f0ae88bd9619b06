import { describe, expect, it } from 'vitest';
import { redirectStaysOnSite } from './web-rules.js';

const stays = (from: string, to: string) => redirectStaysOnSite(new URL(from), new URL(to));

describe('redirectStaysOnSite', () => {
  it('follows the same host and port, http to https, and a leading www.', () => {
    expect(stays('https://example.com/a', 'https://example.com/b?c')).toBe(true);
    expect(stays('https://EXAMPLE.com./a', 'https://example.com/b')).toBe(true);
    expect(stays('http://example.com/a', 'https://example.com/a')).toBe(true);
    expect(stays('https://example.com/', 'https://www.example.com/')).toBe(true);
    expect(stays('https://www.example.com/', 'https://example.com/')).toBe(true);
    expect(stays('http://127.0.0.1:8080/a', 'http://127.0.0.1:8080/b')).toBe(true);
  });

  it('treats another host, port, or a downgrade to http as another site', () => {
    expect(stays('https://example.com/', 'https://evil.com/')).toBe(false);
    expect(stays('https://example.com/', 'https://docs.example.com/')).toBe(false);
    expect(stays('https://example.com/', 'https://example.com.evil.com/')).toBe(false);
    expect(stays('https://example.com/', 'https://wwwexample.com/')).toBe(false);
    expect(stays('http://127.0.0.1:8080/', 'http://127.0.0.1:8081/')).toBe(false);
    expect(stays('http://127.0.0.1:8080/', 'http://localhost:8080/')).toBe(false);
    expect(stays('https://example.com/', 'http://example.com/')).toBe(false);
    expect(stays('http://example.com:8080/', 'https://example.com:8080/')).toBe(false);
  });
});
