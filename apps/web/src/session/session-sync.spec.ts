import { sessionChangeOf } from './session-sync';

describe('sessionChangeOf', () => {
  it('ends the session when another tab removes the token or clears storage', () => {
    expect(sessionChangeOf({ key: 'token', oldValue: 'a', newValue: null })).toBe('ended');
    expect(sessionChangeOf({ key: null, oldValue: null, newValue: null })).toBe('ended');
  });

  it('follows a new token (another login or an impersonation)', () => {
    expect(sessionChangeOf({ key: 'token', oldValue: 'a', newValue: 'b' })).toBe('changed');
    expect(sessionChangeOf({ key: 'token', oldValue: null, newValue: 'b' })).toBe('changed');
  });

  it('ignores other keys and a token written again unchanged', () => {
    expect(sessionChangeOf({ key: 'browseViewMode', oldValue: 'grid', newValue: 'list' })).toBeNull();
    expect(sessionChangeOf({ key: 'token', oldValue: 'a', newValue: 'a' })).toBeNull();
  });
});
