import { readNestReply } from './nest-packets';

describe("reading Nest's reply packets (ADR 0057)", () => {
  it('answers the response, null included', () => {
    expect(readNestReply({ id: 'x', response: { ok: 1 }, isDisposed: true })).toEqual({ ok: 1 });
    expect(readNestReply({ id: 'x', response: null, isDisposed: true })).toBeNull();
    expect(readNestReply({ response: 'first' })).toBe('first');
  });

  it('throws the error payload as sent', () => {
    const payload = { status: 404, code: 'not_found', detail: 'Listing not found' };
    let thrown: unknown;
    try {
      readNestReply({ id: 'x', err: payload, isDisposed: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(payload);
  });

  it('refuses a packet that answered nothing, and takes a value that is no packet as the answer', () => {
    expect(() => readNestReply({ id: 'x', isDisposed: true })).toThrow('The service answered nothing');
    expect(readNestReply({ plain: true })).toEqual({ plain: true });
    expect(readNestReply(null)).toBeNull();
    expect(readNestReply(7)).toBe(7);
  });
});
