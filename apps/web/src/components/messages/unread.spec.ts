import { unreadBadge, unreadPhrase } from './unread';

describe('unreadBadge', () => {
  it.each([
    [0, null],
    [-1, null],
    [1, '1'],
    [99, '99'],
    [100, '99+'],
  ])('%i unread shows %s', (unread, badge) => {
    expect(unreadBadge(unread)).toBe(badge);
  });
});

describe('unreadPhrase', () => {
  it('names one message and many', () => {
    expect(unreadPhrase(1)).toBe('1 unread message');
    expect(unreadPhrase(12)).toBe('12 unread messages');
  });
});
