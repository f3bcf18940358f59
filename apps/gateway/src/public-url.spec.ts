import { checkPublicUrl, publicOrigin } from './gateway.config';

const refusal = (run: () => void): string | null => {
  try {
    run();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('PUBLIC_URL (ADR 0071)', () => {
  it('is required in production, where canonical links and sitemaps need an absolute origin', () => {
    expect(refusal(() => checkPublicUrl({ PUBLIC_URL: undefined }, 'production'))).toMatch(/^Invalid configuration: PUBLIC_URL: is required in production/);
    expect(refusal(() => checkPublicUrl({ PUBLIC_URL: undefined }, 'test'))).toBeNull();
    expect(refusal(() => checkPublicUrl({ PUBLIC_URL: 'https://market.example' }, 'production'))).toBeNull();
  });

  it.each(['https://market.example/shop', 'https://market.example/?a=1', 'https://market.example/#top', 'https://user:pw@market.example'])('refuses %s: an origin only', (url) => {
    expect(refusal(() => checkPublicUrl({ PUBLIC_URL: url }, 'production'))).toMatch(/^Invalid configuration: PUBLIC_URL: must be an origin only \(like https:\/\/market\.example\)/);
  });

  it('gives the origin, or this machine on its port outside production', () => {
    expect(publicOrigin({ PUBLIC_URL: 'https://market.example/', PORT: 3000 })).toBe('https://market.example');
    expect(publicOrigin({ PUBLIC_URL: undefined, PORT: 4100 })).toBe('http://localhost:4100');
  });
});
