import { DEFAULT_SETTINGS } from '@market/contracts';
import { buildUser, eventually, startSmtpSink } from '@market/server-kit/testing';
import { EmailsRepository } from '../../../notifications-service/src/emails/emails.repository';
import { emailJobDone } from '../support/email-jobs';
import { bearer, get, post, startStack, postCounted, type Stack } from '../support/start-stack';

const ADMIN = { email: 'settings-admin@example.com', password: 'settings-admin-pass' };

describe('platform settings drive registration and email delivery', () => {
  let stack: Stack;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let admin: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const saveSettings = (changes: Partial<typeof DEFAULT_SETTINGS>) => post(api('/admin/settings'), { ...DEFAULT_SETTINGS, ...changes }, bearer(admin));

  beforeAll(async () => {
    sink = await startSmtpSink();
    stack = await startStack({
      services: ['auth', 'notifications', 'admin'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
    });
    admin = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
    await sink?.close();
  });
  afterEach(async () => {
    await saveSettings({});
  });

  it('starts from the defaults, validates a save, and never shows the SMTP password', async () => {
    const initial = await get(api('/admin/settings'), bearer(admin));
    expect(initial.body).toEqual({ ...DEFAULT_SETTINGS, smtp_password_set: false });

    const bad = await post(api('/admin/settings'), { ...DEFAULT_SETTINGS, smtp_port: 0, listing_fee: 10.5, success_fee: 'five' }, bearer(admin));
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((i: { loc: string[] }) => i.loc.join('.'))).toEqual(['body.smtp_port', 'body.listing_fee', 'body.success_fee']);
    const partial = await post(api('/admin/settings'), { smtp_host: 'x' }, bearer(admin));
    expect(partial.status).toBe(422);

    const saved = await saveSettings({ smtp_host: 'mail.example.com', smtp_password: 's3cret', success_fee: 2.5, listing_fee: 29 });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ smtp_host: 'mail.example.com', smtp_password: '', smtp_password_set: true, success_fee: 2.5 });
    const kept = await saveSettings({ smtp_host: 'mail.example.com', smtp_password: '' });
    expect(kept.body.smtp_password_set).toBe(true);
    // What GET answers can be posted back as it is (its smtp_password_set is read-only and ignored); 2.55% is a fee.
    const read = await get(api('/admin/settings'), bearer(admin));
    const resaved = await post(api('/admin/settings'), { ...read.body, success_fee: 2.55, smtp_password_set: false }, bearer(admin));
    expect(resaved.status).toBe(200);
    expect(resaved.body).toMatchObject({ success_fee: 2.55, smtp_password_set: true });
    expect((await post(api('/admin/settings'), { ...read.body, success_fee: 2.555 }, bearer(admin))).body).toMatchObject({
      detail: [expect.objectContaining({ loc: ['body', 'success_fee'], msg: 'Success fee has at most two decimals' })],
    });
    expect((await post(api('/admin/settings'), { ...read.body, surprise: 1 }, bearer(admin))).status).toBe(422);

    const user = buildUser();
    await post(api('/auth/register'), user);
    const token = (await post(api('/auth/login'), { login: user.username, password: user.password })).body.access_token;
    expect((await get(api('/admin/settings'), bearer(token))).status).toBe(403);
  });

  it('tells anyone the success fee in force, from the next request after a change (ADR 0026)', async () => {
    const free = await get(api('/fees'));
    expect(free.status).toBe(200);
    expect(free.body).toEqual({ success_fee_percent: 0, verified_email_required: true, inspection_days: 3 });
    expect(free.headers.get('cache-control')).toBe('public, max-age=60');
    await saveSettings({ success_fee: 2.55, listing_fee: 29 });
    expect((await get(api('/fees'))).body).toEqual({ success_fee_percent: 2.55, verified_email_required: true, inspection_days: 3 });
  });

  it('closes registration when allow_registration is off', async () => {
    await saveSettings({ allow_registration: false });
    const refused = await post(api('/auth/register'), buildUser());
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ detail: 'Registration is currently closed' });
    await saveSettings({ allow_registration: true });
    expect((await post(api('/auth/register'), buildUser())).status).toBe(201);
  });

  it("sends through the settings' SMTP server, and only essential emails when notifications are off", async () => {
    // Another server needs its password again (ADR 0031), even when it is a test sink that takes any.
    await saveSettings({ smtp_host: '127.0.0.1', smtp_port: sink.port, smtp_password: 'sink-smtp-password', email_notifications: false });
    const user = buildUser();
    expect((await post(api('/auth/register'), user)).status).toBe(201);
    const mail = await eventually(() => {
      const found = sink.messages.find((m) => m.to.some((to) => to.includes(user.email)));
      expect(found).toBeDefined();
      return found!;
    }, 15_000);
    expect(mail.data).toContain('Subject: Confirm your email address');
    expect(mail.data).toContain('Content-Type: text/html');

    const emails = stack.service('notifications').get(EmailsRepository);
    await eventually(async () => expect((await emails.sentTo(user.email)).map((e) => `${e.kind}:${e.transport}`)).toEqual(['verify_email:smtp']));
    // The welcome email is not essential: once its job is done (skipped by the worker), nothing more goes to the sink.
    await emailJobDone(stack.env, (job) => job.kind === 'welcome' && job.to.toLowerCase() === user.email.toLowerCase());
    expect(sink.messages.filter((m) => m.to.some((to) => to.includes(user.email)))).toHaveLength(1);
  });
});
