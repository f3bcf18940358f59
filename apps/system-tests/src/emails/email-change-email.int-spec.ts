import { DataSource } from 'typeorm';
import { connect } from 'nats';
import { DEFAULT_SETTINGS } from '@market/contracts';
import { eventSubject } from '@market/server-kit';
import { eventually, startSmtpSink } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp, startStack, postCounted, type Stack } from '../support/start-stack';
import { latestLink, readableBody } from '../support/mailbox';

const ADMIN = { email: 'undo-admin@example.com', password: 'undo-admin-pass-1' };

describe('an email change tells the old address, whose link undoes it (ADR 0034)', () => {
  let stack: Stack;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const api = (path: string) => `${stack.url}/api${path}`;

  /** The latest link to a page in the mail an address received (the SMTP server's copy: the recipient's mailbox). */
  const linkFromEmail = (to: string, page: '/verify-email' | '/reset-password' | '/undo-email-change') =>
    eventually(async () => {
      const link = latestLink(sink.messages, to, page);
      expect(link).not.toBeNull();
      return link!;
    }, 15_000);

  beforeAll(async () => {
    sink = await startSmtpSink();
    stack = await startStack({
      services: ['auth', 'notifications', 'admin'],
      env: {
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        PUBLIC_URL: 'https://market.example',
        RATE_LIMIT_SCALE: '100',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(sink.port),
      },
    });
    // The notice is a security notice: it goes out even with marketplace notifications off.
    const admin = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
    const saved = await post(api('/admin/settings'), { ...DEFAULT_SETTINGS, email_notifications: false }, bearer(admin));
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
    await sink?.close();
  });

  it('mails the old address once, with a working undo link; the new one gets its verification link', async () => {
    const user = await signUp(stack.url);
    const other = (await post(api('/auth/login'), { login: user.username, password: user.password })).body.access_token;
    const newEmail = `moved_${user.email}`;

    const refused = await call('PATCH', api('/user/profile'), { name: 'Moved Person', email: newEmail }, bearer(user.token));
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'current_password'], msg: 'Enter your current password to change your email' })]);
    const wrong = await call('PATCH', api('/user/profile'), { name: 'Moved Person', email: newEmail, current_password: 'not my password' }, bearer(user.token));
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('Current password is incorrect');

    const changed = await call('PATCH', api('/user/profile'), { name: 'Moved Person', email: newEmail, current_password: user.password }, bearer(user.token));
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ email: newEmail, email_verified: false });
    expect((await get(api('/auth/me'), bearer(user.token))).status).toBe(200);
    expect((await get(api('/auth/me'), bearer(other))).status).toBe(401);

    const undo = await linkFromEmail(user.email, '/undo-email-change');
    expect(undo.url.startsWith('https://market.example/undo-email-change?token=')).toBe(true);
    const notices = sink.messages.filter((m) => m.to.some((to) => to.includes(user.email)) && readableBody(m.data).includes('/undo-email-change'));
    expect(notices).toHaveLength(1);
    const body = readableBody(notices[0].data);
    expect(body).toContain('The email address of your Site Market account was changed');
    expect(body).toContain(`changed to m***@${user.email.split('@')[1]}`);
    expect(body).not.toContain(newEmail);
    await linkFromEmail(newEmail, '/verify-email');

    // The token event leaves the stream once its email is queued (ADR 0008).
    const nc = await connect({ servers: stack.env.NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      const inStream = (name: 'user.email_changed' | 'user.registered') =>
        jsm.streams.getMessage(stack.env.EVENTS_STREAM, { last_by_subj: eventSubject(stack.env.EVENTS_PREFIX, name) }).then(
          () => true,
          () => false,
        );
      await eventually(async () => expect(await inStream('user.email_changed')).toBe(false));
      // Events without a token stay (the lookup itself works).
      expect(await inStream('user.registered')).toBe(true);
    } finally {
      await nc.close();
    }

    // The page posts the token from the link: the old address is back, nobody is logged in, the password is retired.
    const undone = await post(api('/auth/undo-email-change'), { token: undo.token });
    expect(undone.status).toBe(200);
    expect(undone.body.message).toMatch(/restored/);
    expect((await get(api('/auth/me'), bearer(user.token))).status).toBe(401);
    expect((await post(api('/auth/login'), { login: user.username, password: user.password })).status).toBe(401);
    const again = await post(api('/auth/undo-email-change'), { token: undo.token });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe('Invalid or expired undo link');

    // The owner chooses a new password through the restored address, and is back in with it verified.
    await post(api('/auth/forgot-password'), { email: user.email });
    const reset = await linkFromEmail(user.email, '/reset-password');
    expect((await post(api('/auth/reset-password'), { token: reset.token, new_password: 'taken back passphrase' })).status).toBe(200);
    const login = await post(api('/auth/login'), { login: user.email, password: 'taken back passphrase' });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: user.email, email_verified: true });

    // Only hashes were ever stored; the notifications log keeps no body for SMTP mail.
    const [kept] = await stack.service('notifications').get(DataSource).query("SELECT text_body FROM emails WHERE kind = 'email_changed' AND to_address = $1", [user.email]);
    expect(kept.text_body).not.toContain(undo.token);
  });

  it('refuses a malformed token at the gateway and an unknown one at the service', async () => {
    const missing = await post(api('/auth/undo-email-change'), {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'token']);
    const unknown = await post(api('/auth/undo-email-change'), { token: 'an-unknown-token-of-some-length' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('Invalid or expired undo link');
  });
});
