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

/** A stand-in SMTP server at the edge (no mailbox behind it): it answers the dialogue and keeps each message's text. */
async function smtpStandIn(): Promise<{ port: number; messages: string[]; close: () => Promise<void> }> {
  const { createServer } = await import('node:net');
  const messages: string[] = [];
  const server = createServer((socket) => {
    let data: string | null = null;
    let buffered = '';
    socket.write('220 stand-in ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffered.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(data + buffered.slice(0, end));
          buffered = buffered.slice(end + 5);
          data = null;
          socket.write('250 queued\r\n');
          continue;
        }
        const line = buffered.indexOf('\r\n');
        if (line < 0) return;
        const command = buffered.slice(0, line).toUpperCase();
        buffered = buffered.slice(line + 2);
        if (command.startsWith('EHLO') || command.startsWith('HELO')) socket.write('250 stand-in\r\n');
        else if (command.startsWith('DATA')) {
          data = '';
          socket.write('354 go on\r\n');
        } else if (command.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('extra headers over SMTP', () => {
  it('sends an alert email with its List-Unsubscribe headers (RFC 8058) on the wire', async () => {
    const smtp = await smtpStandIn();
    try {
      const settings = { get: async () => ({ smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_username: '', smtp_password: '', email_notifications: true }) } as unknown as SettingsClient;
      const mailer = new Mailer({ NODE_ENV: 'test', SMTP_PORT: 587, SMTP_SECURE: false, MAIL_FROM: 'Site Market <no-reply@market.example>' } as NotificationsConfig, settings);
      jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
      const link = `https://market.example/api/unsubscribe/s-2f1c7a52-55a1-4c8e-9d3c-0b8a6f1e2d4c.${'b'.repeat(86)}`;
      const sent = await mailer.send('ann@example.com', {
        subject: 'Alert',
        text: 'New listings',
        html: '<p>New listings</p>',
        headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      expect(sent).toBe('smtp');
      expect(smtp.messages).toHaveLength(1);
      // Long header lines may be folded: unfold before reading them.
      const head = smtp.messages[0].split('\r\n\r\n')[0].replace(/\r\n[ \t]+/g, ' ');
      expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      const value = /^List-Unsubscribe: (.+)$/m.exec(head)?.[1].replace(/\s+/g, '');
      expect(value).toBe(`<${link}>`);
    } finally {
      jest.restoreAllMocks();
      await smtp.close();
    }
  });
});
