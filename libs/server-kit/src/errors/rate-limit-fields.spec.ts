import { rateLimitFields, setRateLimitHeaders } from './rate-limit-fields';

describe('rateLimitFields (draft-ietf-httpapi-ratelimit-headers-10, ADR 0064)', () => {
  it('writes a windowed quota with its window and a concurrency quota with its unit', () => {
    expect(
      rateLimitFields([
        { policy: 'login-address', quota: 30, window_seconds: 900, unit: 'requests', remaining: 12, reset_seconds: 640 },
        { policy: 'uploads', quota: 4, unit: 'concurrent-requests', remaining: 0, reset_seconds: 5 },
      ]),
    ).toEqual({
      'RateLimit-Policy': '"login-address";q=30;w=900, "uploads";q=4;qu="concurrent-requests"',
      RateLimit: '"login-address";r=12;t=640, "uploads";r=0;t=5',
    });
  });

  it('escapes a quote or backslash in a name, so a field cannot be broken open', () => {
    const fields = rateLimitFields([{ policy: 'a"b\\c', quota: 1, unit: 'requests', remaining: 0, reset_seconds: 1 }]);
    expect(fields.RateLimit).toBe('"a\\"b\\\\c";r=0;t=1');
  });

  it('sets both headers, and none when no quota counted the request', () => {
    const set: Record<string, string> = {};
    const response = { setHeader: (name: string, value: string) => (set[name] = value) };
    setRateLimitHeaders(response, []);
    expect(set).toEqual({});
    setRateLimitHeaders(response, [{ policy: 'contact', quota: 5, window_seconds: 3600, unit: 'requests', remaining: 4, reset_seconds: 3599 }]);
    expect(set).toEqual({ 'RateLimit-Policy': '"contact";q=5;w=3600', RateLimit: '"contact";r=4;t=3599' });
  });
});
