import type { MessageDto } from '@market/contracts';
import { conversationsOf, messagesTabLabel, replySubject } from './messages';

const me = { id: 'me', username: 'me_user' };
const ann = { id: 'ann', username: 'ann' };
const bob = { id: 'bob', username: 'bob' };

const message = (overrides: Partial<MessageDto>): MessageDto => ({
  id: Math.random().toString(36).slice(2),
  sender: ann,
  receiver: me,
  listing_id: 'l1',
  listing_title: 'Recipe blog',
  subject: 'Hello',
  content: 'Hi there',
  read: false,
  created_at: '2026-11-20T10:00:00.000Z',
  direction: 'received',
  ...overrides,
  receiver_id: (overrides.receiver ?? me).id,
});

describe('conversationsOf', () => {
  it('groups by the other person and the listing, oldest message first, latest conversation first', () => {
    const list = conversationsOf([
      message({ id: 'c', sender: me, receiver: ann, direction: 'sent', read: false, created_at: '2026-11-20T12:00:00.000Z', subject: 'Re: Hello' }),
      message({ id: 'b', sender: bob, created_at: '2026-11-20T11:00:00.000Z', listing_id: null, listing_title: null }),
      message({ id: 'a', created_at: '2026-11-20T10:00:00.000Z' }),
      message({ id: 'd', created_at: '2026-11-19T10:00:00.000Z', listing_id: 'l2', listing_title: 'SaaS', read: true }),
    ]);
    expect(list.map((c) => [c.key, c.messages.map((m) => m.id), c.unread])).toEqual([
      ['ann:l1', ['a', 'c'], 1],
      ['bob:direct', ['b'], 1],
      ['ann:l2', ['d'], 0],
    ]);
    expect(list[0]).toMatchObject({ counterpart: ann, listing_title: 'Recipe blog', last_at: '2026-11-20T12:00:00.000Z' });
  });

  it('counts only received, unread messages', () => {
    const [only] = conversationsOf([message({ read: true }), message({ direction: 'sent', sender: me, receiver: ann, read: false }), message({})]);
    expect(only.unread).toBe(1);
  });

  it('is empty for no messages', () => {
    expect(conversationsOf([])).toEqual([]);
  });
});

describe('replySubject', () => {
  it.each([
    ['Hello', 'Re: Hello'],
    ['Re: Hello', 'Re: Hello'],
    ['RE: Hello', 'RE: Hello'],
    ['Remote work', 'Re: Remote work'],
  ])('%s -> %s', (subject, reply) => {
    expect(replySubject(subject)).toBe(reply);
  });
});

describe('messagesTabLabel', () => {
  it.each([
    [0, null],
    [1, '1'],
    [99, '99'],
    [100, '99+'],
  ])('%i unread shows %s', (unread, badge) => {
    expect(messagesTabLabel(unread)).toEqual({ text: 'Messages', badge });
  });
});
