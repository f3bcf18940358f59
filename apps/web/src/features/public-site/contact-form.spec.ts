import { MESSAGE_TEXTS } from '@market/contracts';
import { contactResult, EMPTY_CONTACT, validateContact } from './contact-form';

describe('validateContact (SPEC §5)', () => {
  it('requires every field and a listed subject', () => {
    expect(validateContact(EMPTY_CONTACT)).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Choose a subject',
      message: 'Message is required',
    });
    expect(validateContact({ ...EMPTY_CONTACT, name: 'Ada', email: 'ada@', subject: 'Gossip', message: 'Hi' })).toEqual({
      email: 'Enter a valid email address',
      subject: 'Choose a subject',
    });
  });

  it('accepts a complete form', () => {
    expect(validateContact({ name: 'Ada', email: 'ada@example.com', subject: 'Press & Media', message: 'Hello', urgency: 'high' })).toEqual({});
  });
});

describe('contactResult (SPEC §8)', () => {
  it("shows the server's message, green when it says Thank you, else red", () => {
    expect(contactResult({ ok: true, message: 'Thank you! We got it.' })).toEqual({ text: 'Thank you! We got it.', success: true });
    expect(contactResult({ ok: true, message: 'Received.' })).toEqual({ text: 'Received.', success: false });
  });

  it('falls back to the standard thank-you, and says sorry on failure', () => {
    expect(contactResult({ ok: true })).toEqual({ text: "Thank you for your message! We'll get back to you within 24 hours.", success: true });
    expect(contactResult({ ok: false })).toEqual({ text: MESSAGE_TEXTS.contactFailed, success: false });
    expect(MESSAGE_TEXTS.contactFailed).toBe('Sorry, there was an error sending your message. Please try again.');
  });
});
