import { DEFAULT_EXTERNAL_LINKS, EXTERNAL_LINKS, externalLink } from './site-links';

describe('externalLink', () => {
  it('uses a configured http(s) address', () => {
    expect(externalLink('https://valuation.example.com/tool', 'https://x.example/')).toBe('https://valuation.example.com/tool');
    expect(externalLink('http://domains.example.com', 'https://x.example/')).toBe('http://domains.example.com/');
  });

  it('falls back on nothing, a typo or an unsafe scheme', () => {
    expect(externalLink(undefined, 'https://x.example/')).toBe('https://x.example/');
    expect(externalLink('', 'https://x.example/')).toBe('https://x.example/');
    expect(externalLink('not a url', 'https://x.example/')).toBe('https://x.example/');
    expect(externalLink('javascript:alert(1)', 'https://x.example/')).toBe('https://x.example/');
  });

  it('has the defaults when the build names nothing (tests)', () => {
    expect(EXTERNAL_LINKS).toEqual(DEFAULT_EXTERNAL_LINKS);
  });
});
