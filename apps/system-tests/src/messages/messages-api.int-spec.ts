import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS, MESSAGE_SEND_LIMITS, MESSAGE_TEXTS } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { EmailsRepository } from '../../../notifications-service/src/emails/emails.repository';
import { createLiveListing } from '../support/auctions';
import { emailJobDone } from '../support/email-jobs';
import { bearer, call, get, post, signUp, startStack, postCounted, type Json, type Stack } from '../support/start-stack';

const ADMIN = { email: 'messages-admin@example.com', password: 'messages-admin-pass' };

describe('messages API (SPEC §7, D19)', () => {
  let stack: Stack;
  let admin: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const send = (token: string, body: Json) => post(api('/messages'), body, bearer(token));
  const emails = () => stack.service('notifications').get(EmailsRepository);

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'listings', 'notifications', 'admin'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
    });
    admin = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('sends a message about a listing: the receiver sees it unread, reads it, and is emailed once', async () => {
    const seller = await signUp(stack.url);
    const buyer = await signUp(stack.url);
    const listing = await createLiveListing(stack.url, seller.token, admin, { title: 'Cooking blog with 200 recipes' });

    const sent = await send(buyer.token, { receiver_id: seller.id.toUpperCase(), listing_id: listing.id, subject: '  Is it still for sale?  ', content: 'Hello!\nCould we talk?' });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toBe(MESSAGE_TEXTS.sent);
    expect(sent.body.data).toMatchObject({
      sender: { id: buyer.id, username: buyer.username },
      receiver: { id: seller.id, username: seller.username },
      receiver_id: seller.id,
      listing_id: listing.id,
      listing_title: 'Cooking blog with 200 recipes',
      subject: 'Is it still for sale?',
      content: 'Hello!\nCould we talk?',
      read: false,
      direction: 'sent',
    });

    expect((await get(api('/messages/unread-count'), bearer(seller.token))).body).toEqual({ unread_count: 1 });
    expect((await get(api('/messages/unread-count'), bearer(buyer.token))).body).toEqual({ unread_count: 0 });
    const inbox = await get(api('/messages'), bearer(seller.token));
    expect(inbox.body.messages).toHaveLength(1);
    expect(inbox.body.messages[0]).toMatchObject({ id: sent.body.data.id, receiver_id: seller.id, direction: 'received', read: false });
    expect((await get(api('/messages'), bearer(buyer.token))).body.messages[0]).toMatchObject({ receiver_id: seller.id, direction: 'sent' });

    // Only the receiver marks it read; the sender and strangers cannot.
    expect((await post(api(`/messages/${sent.body.data.id}/read`), {}, bearer(buyer.token))).status).toBe(403);
    const stranger = await signUp(stack.url);
    expect((await post(api(`/messages/${sent.body.data.id}/read`), {}, bearer(stranger.token))).status).toBe(404);
    const read = await post(api(`/messages/${sent.body.data.id}/read`), {}, bearer(seller.token));
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ message: 'Message marked as read', unread_count: 0 });
    expect((await post(api(`/messages/${sent.body.data.id}/read`), {}, bearer(seller.token))).body.unread_count).toBe(0);
    expect((await get(api('/messages'), bearer(seller.token))).body.messages[0].read).toBe(true);

    await eventually(async () => {
      const mails = await emails().sentTo(seller.email);
      expect(mails.filter((m) => m.kind === 'new_message').map((m) => m.subject)).toEqual([`New message from ${buyer.username}: Is it still for sale?`]);
    }, 15_000);
  });

  it('lists sent and received messages newest first', async () => {
    const a = await signUp(stack.url);
    const b = await signUp(stack.url);
    await send(a.token, { receiver_id: b.id, subject: 'First', content: 'one' });
    await send(b.token, { receiver_id: a.id, subject: 'Second', content: 'two' });
    await send(a.token, { receiver_id: b.id, subject: 'Third', content: 'three' });
    const list = await get(api('/messages'), bearer(a.token));
    expect(list.body.messages.map((m: Json) => `${m.subject}:${m.direction}`)).toEqual(['Third:sent', 'Second:received', 'First:sent']);
    expect((await get(api('/messages/unread-count'), bearer(b.token))).body.unread_count).toBe(2);
  });

  it('refuses bad input with a clear detail and stores nothing', async () => {
    const a = await signUp(stack.url);
    const b = await signUp(stack.url);
    expect((await post(api('/messages'), { receiver_id: b.id, subject: 'x', content: 'y' })).status).toBe(401);
    expect((await get(api('/messages'))).status).toBe(401);

    const invalid = await send(a.token, { receiver_id: 'nobody', subject: ' ', content: '', extra: 1 });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail.map((i: Json) => i.loc.join('.'))).toEqual(expect.arrayContaining(['body.receiver_id', 'body.subject', 'body.content']));

    const self = await send(a.token, { receiver_id: a.id, subject: 'Me', content: 'myself' });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ detail: 'You cannot send a message to yourself' });
    const unknown = await send(a.token, { receiver_id: randomUUID(), subject: 'Hi', content: 'there' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ detail: 'Recipient not found' });
    const noListing = await send(a.token, { receiver_id: b.id, listing_id: randomUUID(), subject: 'Hi', content: 'there' });
    expect(noListing.status).toBe(404);
    expect((await call('POST', api('/messages/not-an-id/read'), {}, bearer(b.token))).status).toBe(422);

    expect((await get(api('/messages'), bearer(b.token))).body.messages).toEqual([]);
    expect((await get(api('/messages'), bearer(a.token))).body.messages).toEqual([]);
  });

  it('refuses messages to a suspended member until they are active again', async () => {
    const a = await signUp(stack.url);
    const b = await signUp(stack.url);
    expect((await call('PATCH', api(`/admin/users/${b.id}`), { status: 'suspended' }, bearer(admin))).status).toBe(200);
    const refused = await send(a.token, { receiver_id: b.id, subject: 'Deal', content: 'pay me outside the site' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ detail: MESSAGE_TEXTS.recipientUnavailable });
    expect((await get(api('/messages'), bearer(a.token))).body.messages).toEqual([]);

    expect((await call('PATCH', api(`/admin/users/${b.id}`), { status: 'active' }, bearer(admin))).status).toBe(200);
    expect((await send(a.token, { receiver_id: b.id, subject: 'Deal', content: 'hello again' })).status).toBe(201);
  });

  it('limits how many messages one member sends an hour, even when the sends race', async () => {
    const [hourly] = MESSAGE_SEND_LIMITS;
    const spammer = await signUp(stack.url);
    const target = await signUp(stack.url);
    const other = await signUp(stack.url);
    const results = await Promise.all(
      Array.from({ length: hourly.max + 5 }, (_, i) => send(spammer.token, { receiver_id: target.id, subject: `Offer ${i}`, content: 'buy now' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(hourly.max);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0].body).toMatchObject({ detail: MESSAGE_TEXTS.tooMany });
    // The hour's quota, and when its oldest message leaves the window: within the hour (ADR 0064).
    const wait = Number(refused[0].headers.get('retry-after'));
    expect(wait).toBeGreaterThan(hourly.windowMinutes * 60 - 120);
    expect(wait).toBeLessThanOrEqual(hourly.windowMinutes * 60);
    expect(refused[0].headers.get('ratelimit-policy')).toBe(`"messages-60m";q=${hourly.max};w=3600`);
    expect(refused[0].headers.get('ratelimit')).toBe(`"messages-60m";r=0;t=${wait}`);
    expect((await get(api('/messages/unread-count'), bearer(target.token))).body.unread_count).toBe(hourly.max);
    // The limit is the sender's own: others still write to the same member.
    expect((await send(other.token, { receiver_id: target.id, subject: 'Hi', content: 'hello' })).status).toBe(201);
  });

  it('sends no message email while email notifications are off', async () => {
    await post(api('/admin/settings'), { ...DEFAULT_SETTINGS, email_notifications: false }, bearer(admin));
    try {
      const a = await signUp(stack.url);
      const b = await signUp(stack.url);
      expect((await send(a.token, { receiver_id: b.id, subject: 'Quiet', content: 'no email' })).status).toBe(201);
      // The unread count proves the message is there; once the email job for it is done (skipped by the worker), no
      // email can come of it.
      expect((await get(api('/messages/unread-count'), bearer(b.token))).body.unread_count).toBe(1);
      await emailJobDone(stack.env, (job) => job.kind === 'notice' && job.category === 'new_message' && job.to.toLowerCase() === b.email.toLowerCase());
      expect((await emails().sentTo(b.email)).filter((m) => m.kind === 'new_message')).toEqual([]);
    } finally {
      await post(api('/admin/settings'), DEFAULT_SETTINGS, bearer(admin));
    }
  });
});
