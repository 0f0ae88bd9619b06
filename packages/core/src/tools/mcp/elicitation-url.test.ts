import { describe, expect, it } from 'vitest';
import { checkVisitUrl, visitNeededMessage } from './elicitation-url.js';

describe('links a server asks the person to visit', () => {
  it('shows https links with their host; an internationalised host in its punycode form', () => {
    expect(checkVisitUrl('https://login.example.com:8443/a?b=c#d')).toEqual({
      url: 'https://login.example.com:8443/a?b=c#d',
      host: 'login.example.com:8443',
    });
    // A Cyrillic "а" in "pаypal" is made plain.
    expect(checkVisitUrl('https://p\u0430ypal.com/')).toEqual({
      url: 'https://xn--pypal-4ve.com/',
      host: 'xn--pypal-4ve.com',
    });
  });

  it('refuses other schemes, text that is no URL, and user names that disguise the host', () => {
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
    ])
      expect(checkVisitUrl(url)).toMatchObject({
        problem: expect.stringMatching(/only sends people to https/),
      });
    expect(checkVisitUrl('not a link')).toEqual({ problem: 'it is not a valid URL' });
    expect(checkVisitUrl('https://bank.example.com@evil.example.net/')).toMatchObject({
      problem: expect.stringMatching(/user name or password/),
    });
  });

  it('tells the model that the person was asked, never the link', () => {
    expect(visitNeededMessage('gh', 'list_repos', true, true)).toMatch(
      /said they will complete it; call list_repos again once they say it is done/,
    );
    expect(visitNeededMessage('gh', 'list_repos', true, false)).toMatch(/did not go ahead/);
    expect(visitNeededMessage('gh', 'list_repos', false, false)).toMatch(/Nobody can be asked/);
  });
});
