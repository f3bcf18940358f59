import { MESSAGE_TEXTS, type Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import { authorizeMarkRead, authorizeReceiver, authorizeSendTo } from './message.policy';

const ann: Actor = { user_id: 'ann', role: 'regular' };
const bob: Actor = { user_id: 'bob', role: 'regular' };
const eve: Actor = { user_id: 'eve', role: 'admin' };
const refusal = (run: () => void) => {
  try {
    run();
    return null;
  } catch (error) {
    return { status: (error as AppError).status, detail: (error as AppError).detail };
  }
};

describe('message policy (ADR 0069)', () => {
  it('sends to another member who can be reached, never to oneself, a stranger to auth-service or a suspended member', () => {
    expect(refusal(() => authorizeSendTo(ann, 'bob'))).toBeNull();
    expect(refusal(() => authorizeSendTo(ann, 'ann'))).toEqual({ status: 400, detail: 'You cannot send a message to yourself' });
    expect(refusal(() => authorizeReceiver({ status: 'active' }))).toBeNull();
    expect(refusal(() => authorizeReceiver(null))).toEqual({ status: 404, detail: 'Recipient not found' });
    expect(refusal(() => authorizeReceiver({ status: 'suspended' }))).toEqual({ status: 403, detail: MESSAGE_TEXTS.recipientUnavailable });
  });

  it.each([
    ['its receiver', bob, null],
    ['its sender', ann, { status: 403, detail: 'Only the recipient can mark a message as read' }],
    ['anyone else, an admin included', eve, { status: 404, detail: 'Message not found' }],
  ])('marks a message read for %s', (_who, actor, expected) => {
    expect(refusal(() => authorizeMarkRead(actor, { sender_id: 'ann', receiver_id: 'bob' }))).toEqual(expected);
  });

  it('finds no message that does not exist', () => {
    expect(refusal(() => authorizeMarkRead(bob, null))).toEqual({ status: 404, detail: 'Message not found' });
  });
});
