import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { MESSAGE_TEXTS } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { EmailsRepository } from '../../../notifications-service/src/emails/emails.repository';
import { bearer, post, postCounted, signUp, startStack, type Json, type Stack } from '../support/start-stack';

const SUPPORT = 'help-desk@example.com';

describe('contact API (SPEC §5, §8, D19)', () => {
  let stack: Stack;
  const api = (path: string) => `${stack.url}/api${path}`;
  const form = (overrides: Json = {}) => ({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    subject: 'Technical Support',
    message: 'The sell form will not take my screenshots.',
    ...overrides,
  });
  const sql = (text: string): Promise<Json[]> => stack.service('notifications').get(DataSource).query(text);
  const supportMail = () => stack.service('notifications').get(EmailsRepository).sentTo(SUPPORT);

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'notifications', 'admin'], env: { SUPPORT_EMAIL: SUPPORT } });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  // Every test starts with this address's contact allowance unused.
  beforeEach(async () => {
    const redis = new Redis(stack.env.REDIS_URL);
    try {
      const keys = await redis.keys(`${stack.env.REDIS_KEY_PREFIX}ratelimit:contact:*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it('stores a message, answers the thank-you text and mails support once, naming a signed-in sender', async () => {
    const guest = await postCounted(api('/contact'), form());
    expect(guest.status).toBe(200);
    expect(guest.body).toEqual({ message: MESSAGE_TEXTS.contactThanks });
    const user = await signUp(stack.url);
    const signedIn = await postCounted(api('/contact'), form({ subject: 'Payment & Billing', urgency: 'high', email: user.email }), bearer(user.token));
    expect(signedIn.status).toBe(200);

    const rows: Json[] = await sql('SELECT user_id, name, email, subject, urgency, message FROM notifications.contact_messages ORDER BY created_at');
    expect(rows).toEqual([
      { user_id: null, name: 'Ada Lovelace', email: 'ada@example.com', subject: 'Technical Support', urgency: 'normal', message: form().message },
      { user_id: user.id, name: 'Ada Lovelace', email: user.email.toLowerCase(), subject: 'Payment & Billing', urgency: 'high', message: form().message },
    ]);
    await eventually(async () => {
      const subjects = (await supportMail()).map((m) => m.subject).sort();
      expect(subjects).toEqual(['[Contact: high] Payment & Billing from Ada Lovelace', '[Contact: normal] Technical Support from Ada Lovelace']);
    }, 15_000);
    const bodies: Json[] = await sql(`SELECT text_body FROM notifications.emails WHERE kind = 'contact' ORDER BY id`);
    expect(bodies[0].text_body).toContain('Not signed in');
    expect(bodies[1].text_body).toContain(`Signed in as ${user.username}`);
  });

  it('refuses a bad form with field details and stores nothing', async () => {
    const before: Json[] = await sql('SELECT count(*)::int AS n FROM notifications.contact_messages');
    const bad = await postCounted(api('/contact'), { name: 'Eve\nBcc: x@example.com', email: 'nope', subject: 'Spam', message: '', urgency: 'urgent' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((i: Json) => i.loc.join('.')).sort()).toEqual(['body.email', 'body.message', 'body.name', 'body.subject', 'body.urgency']);
    expect((await postCounted(api('/contact'), form({ extra: true }))).status).toBe(422);
    const after: Json[] = await sql('SELECT count(*)::int AS n FROM notifications.contact_messages');
    expect(after[0].n).toBe(before[0].n);
  });

  it('limits one address to 5 messages an hour', async () => {
    const statuses: number[] = [];
    // A refused form counts too: the limit is on attempts, so it also slows down someone probing the form.
    statuses.push((await post(api('/contact'), form({ email: 'bad' }))).status);
    for (let i = 0; i < 5; i += 1) statuses.push((await post(api('/contact'), form())).status);
    expect(statuses).toEqual([422, 200, 200, 200, 200, 429]);
    const limited = await post(api('/contact'), form());
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(limited.headers.get('ratelimit-policy')).toBe('"contact-address";q=5;w=3600');
    expect(limited.headers.get('ratelimit')).toBe(`"contact-address";r=0;t=${limited.headers.get('retry-after')}`);
  });
});
