import { MESSAGE_TEXTS } from '@market/contracts';
import { contactSellerDraft, escrowDraft, sendFailureText, validateDraft } from './compose-message';

describe('validateDraft (SPEC §5)', () => {
  it('requires a subject and a message', () => {
    expect(validateDraft({ subject: ' ', content: '\n' })).toEqual({ subject: 'Subject is required', content: 'Message is required' });
    expect(validateDraft({ subject: 'Hi', content: 'There' })).toEqual({});
  });

  it('keeps to the server limits', () => {
    expect(validateDraft({ subject: 'a'.repeat(201), content: 'b'.repeat(5001) })).toEqual({
      subject: 'Subject must be at most 200 characters',
      content: 'Message must be at most 5000 characters',
    });
  });
});

describe('sendFailureText (SPEC §8)', () => {
  it("shows the server's detail, else the standard text", () => {
    expect(sendFailureText({ status: 404, data: { detail: 'Recipient not found' } })).toBe('Recipient not found');
    expect(sendFailureText({ status: 422, data: { detail: [{ loc: ['body', 'subject'], msg: 'Subject is required' }] } })).toBe('Subject is required');
    expect(sendFailureText({ status: 'FETCH_ERROR' })).toBe(MESSAGE_TEXTS.sendFailed);
    expect(MESSAGE_TEXTS.sendFailed).toBe('Error sending message. Please try again.');
  });
});

describe('drafts (SPEC §2)', () => {
  it('names the listing in the subject and the message', () => {
    expect(contactSellerDraft('Recipe blog')).toEqual({
      subject: 'Inquiry about "Recipe blog"',
      content: 'Hi,\n\nI\'m interested in your listing "Recipe blog" and would like to know more about it.\n\nThanks',
    });
    const escrow = escrowDraft('Big SaaS');
    expect(escrow.subject).toBe('Escrow purchase of "Big SaaS"');
    expect(escrow.content).toContain('"Big SaaS" through escrow');
  });
});
