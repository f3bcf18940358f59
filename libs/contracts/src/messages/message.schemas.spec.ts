import { ContactSchema, hasControlCharacters, SendMessageSchema } from './message.schemas';

const receiver = '6F1C2B9E-3A4D-4E5F-8A9B-0C1D2E3F4A5B';

describe('SendMessageSchema', () => {
  it('trims the text and lower-cases the ids', () => {
    const parsed = SendMessageSchema.parse({ receiver_id: receiver, listing_id: receiver, subject: '  Hello  ', content: ' Is it still for sale?\n' });
    expect(parsed).toEqual({
      receiver_id: receiver.toLowerCase(),
      listing_id: receiver.toLowerCase(),
      subject: 'Hello',
      content: 'Is it still for sale?',
    });
  });

  it('requires a subject and a message (SPEC §5)', () => {
    const result = SendMessageSchema.safeParse({ receiver_id: receiver, subject: '   ', content: '' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toEqual(expect.arrayContaining(['subject: Subject is required', 'content: Message is required']));
  });

  it('refuses control characters but keeps tabs and new lines', () => {
    expect(SendMessageSchema.safeParse({ receiver_id: receiver, subject: 'Hi\u0007', content: 'x' }).success).toBe(false);
    expect(SendMessageSchema.safeParse({ receiver_id: receiver, subject: 'Hi', content: 'line one\n\tline two\r\n' }).success).toBe(true);
  });

  it('keeps the subject on one line, since it becomes the email subject', () => {
    const result = SendMessageSchema.safeParse({ receiver_id: receiver, subject: 'Hi\nBcc: everyone', content: 'x' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Subject must be one line']);
    expect(SendMessageSchema.safeParse({ receiver_id: receiver, subject: 'Hi\r', content: 'x' }).success).toBe(true);
  });

  it('refuses unknown fields and a malformed receiver', () => {
    expect(SendMessageSchema.safeParse({ receiver_id: receiver, subject: 'a', content: 'b', read: true }).success).toBe(false);
    expect(SendMessageSchema.safeParse({ receiver_id: 'not-an-id', subject: 'a', content: 'b' }).success).toBe(false);
  });

  it('caps the subject and the message', () => {
    expect(SendMessageSchema.safeParse({ receiver_id: receiver, subject: 'a'.repeat(201), content: 'b' }).success).toBe(false);
    expect(SendMessageSchema.safeParse({ receiver_id: receiver, subject: 'a', content: 'b'.repeat(5001) }).success).toBe(false);
  });
});

describe('ContactSchema', () => {
  const form = { name: 'Ada Lovelace', email: ' Ada@Example.COM ', subject: 'Technical Support', message: 'The sell form hangs.' };

  it('defaults the urgency to normal and normalises the email', () => {
    expect(ContactSchema.parse(form)).toEqual({ ...form, email: 'ada@example.com', urgency: 'normal' });
  });

  it('accepts only the listed subjects and urgencies', () => {
    expect(ContactSchema.safeParse({ ...form, subject: 'Something else' }).success).toBe(false);
    expect(ContactSchema.safeParse({ ...form, urgency: 'urgent' }).success).toBe(false);
    expect(ContactSchema.parse({ ...form, urgency: 'high' }).urgency).toBe('high');
  });

  it('keeps the name on one line so it cannot add mail headers', () => {
    expect(ContactSchema.safeParse({ ...form, name: 'Ada\nBcc: victim@example.com' }).success).toBe(false);
  });

  it('requires a valid email', () => {
    expect(ContactSchema.safeParse({ ...form, email: 'ada@' }).success).toBe(false);
  });
});

describe('hasControlCharacters', () => {
  it.each([
    ['plain text', false],
    ['tab\tnew line\ncarriage\r', false],
    ['bell\u0007', true],
    ['nul\u0000', true],
    ['delete\u007f', true],
  ])('%j -> %s', (text, expected) => {
    expect(hasControlCharacters(text)).toBe(expected);
  });
});
