import { uploadMultipart } from './upload';

class FakeXhr {
  static last: FakeXhr;
  static reply = { status: 201, text: '{"id":"l1"}' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    this.status = FakeXhr.reply.status;
    this.responseText = FakeXhr.reply.text;
    if (this.status === 0) this.onerror?.();
    else this.onload?.();
  }
}

const storage = new Map<string, string>();
beforeAll(() => {
  Object.assign(globalThis, {
    XMLHttpRequest: FakeXhr,
    localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v), removeItem: (k: string) => storage.delete(k) },
  });
});
beforeEach(() => storage.clear());

describe('uploadMultipart', () => {
  it('sends the form with the Bearer token and reports progress and the JSON answer', async () => {
    storage.set('token', 'abc');
    FakeXhr.reply = { status: 201, text: '{"id":"l1"}' };
    const progress: number[] = [];
    const body = new FormData();
    const result = await uploadMultipart({ method: 'POST', path: '/listings', body, onProgress: (f) => progress.push(f) });
    expect(FakeXhr.last.method).toBe('POST');
    expect(FakeXhr.last.url).toBe('/api/listings');
    expect(FakeXhr.last.headers.Authorization).toBe('Bearer abc');
    expect(FakeXhr.last.body).toBe(body);
    expect(progress).toEqual([0.5, 1]);
    expect(result).toEqual({ status: 201, ok: true, body: { id: 'l1' } });
  });

  it("sends the action's Idempotency-Key when given one, and none otherwise (ADR 0047)", async () => {
    FakeXhr.reply = { status: 201, text: '{"id":"l1"}' };
    await uploadMultipart({ method: 'POST', path: '/listings', body: new FormData(), idempotencyKey: 'key-0001-abcd' });
    expect(FakeXhr.last.headers['Idempotency-Key']).toBe('key-0001-abcd');
    await uploadMultipart({ method: 'PATCH', path: '/listings/1', body: new FormData() });
    expect(FakeXhr.last.headers['Idempotency-Key']).toBeUndefined();
  });

  it('ends the session on a 401 to a request that carried the token', async () => {
    storage.set('token', 'abc');
    FakeXhr.reply = { status: 401, text: '{"detail":"Not authenticated"}' };
    const ended = jest.fn();
    const result = await uploadMultipart({ method: 'PATCH', path: '/listings/1', body: new FormData(), onSessionEnded: ended });
    expect(result.ok).toBe(false);
    expect(result.body).toEqual({ detail: 'Not authenticated' });
    expect(storage.has('token')).toBe(false);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('sends no token for guests and survives non-JSON and network failures', async () => {
    FakeXhr.reply = { status: 502, text: '<html>bad gateway</html>' };
    const ended = jest.fn();
    expect(await uploadMultipart({ method: 'POST', path: '/listings', body: new FormData(), onSessionEnded: ended })).toEqual({ status: 502, ok: false, body: null });
    expect(FakeXhr.last.headers.Authorization).toBeUndefined();
    FakeXhr.reply = { status: 0, text: '' };
    expect(await uploadMultipart({ method: 'POST', path: '/listings', body: new FormData() })).toEqual({ status: 0, ok: false, body: null });
    expect(ended).not.toHaveBeenCalled();
  });
});
