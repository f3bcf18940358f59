import { Logger } from '@nestjs/common';
import type { SettingsClient } from '@market/server-kit';
import type { NotificationsConfig } from '../notifications.config';
import { resetPasswordEmail } from './email-templates';
import { Mailer } from './mailer';

const TOKEN = 'r3set-Tok3n_abcdefghijklmnopqrstuvwxyz0123';
const noSmtp = { get: async () => ({ smtp_host: '', email_notifications: true }) } as unknown as SettingsClient;
const mailerIn = (NODE_ENV: string) => new Mailer({ NODE_ENV, SMTP_PORT: 587, SMTP_SECURE: false, MAIL_FROM: 'x <x@x.example>' } as NotificationsConfig, noSmtp);

describe('the log transport (no SMTP server)', () => {
  const email = resetPasswordEmail({ username: 'ann', token: TOKEN, publicUrl: 'https://market.example' });
  let logged: unknown[];
  beforeEach(() => {
    logged = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void logged.push(message));
  });
  afterEach(() => jest.restoreAllMocks());

  it('writes the whole email, link and token, outside production: the log is a developer’s mailbox', async () => {
    expect(await mailerIn('development').send('ann@example.com', email)).toBe('log');
    expect(JSON.stringify(logged)).toContain(`reset-password?token=${TOKEN}`);
  });

  it('never writes a one-time token in production (ADR 0031)', async () => {
    expect(await mailerIn('production').send('ann@example.com', email)).toBe('log');
    const line = JSON.stringify(logged);
    expect(line).not.toContain(TOKEN);
    expect(line).toContain('https://market.example/reset-password?token=[redacted]');
  });
});
