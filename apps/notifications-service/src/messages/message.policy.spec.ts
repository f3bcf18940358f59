import { MESSAGE_TEXTS, type Actor } from '@market/contracts';
import { refusalOf } from '@market/server-kit/testing';
import { authorizeMarkRead, authorizeReceiver, authorizeSendTo } from './message.policy';

const ann: Actor = { user_id: 'ann', role: 'regular' };
const bob: Actor = { user_id: 'bob', role: 'regular' };
const eve: Actor = { user_id: 'eve', role: 'admin' };

describe('message policy (ADR 0069)', () => {
  it('sends to another member who can be reached, never to oneself, a stranger to auth-service or a suspended member', () => {
    expect(refusalOf(() => authorizeSendTo(ann, 'bob'))).toBeNull();
    expect(refusalOf(() => authorizeSendTo(ann, 'ann'))).toEqual({ status: 400, detail: 'You cannot send a message to yourself' });
    expect(refusalOf(() => authorizeReceiver({ status: 'active' }))).toBeNull();
    expect(refusalOf(() => authorizeReceiver(null))).toEqual({ status: 404, detail: 'Recipient not found' });
    expect(refusalOf(() => authorizeReceiver({ status: 'suspended' }))).toEqual({ status: 403, detail: MESSAGE_TEXTS.recipientUnavailable });
  });

  it.each([
    ['its receiver', bob, null],
    ['its sender', ann, { status: 403, detail: 'Only the recipient can mark a message as read' }],
    ['anyone else, an admin included', eve, { status: 404, detail: 'Message not found' }],
  ])('marks a message read for %s', (_who, actor, expected) => {
    expect(refusalOf(() => authorizeMarkRead(actor, { sender_id: 'ann', receiver_id: 'bob' }))).toEqual(expected);
  });

  it('finds no message that does not exist', () => {
    expect(refusalOf(() => authorizeMarkRead(bob, null))).toEqual({ status: 404, detail: 'Message not found' });
  });
});
