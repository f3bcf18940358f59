import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { counter, SettingsClient } from '@market/server-kit';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../notifications.config';
import type { RenderedEmail } from './email-templates';
import { redactTokens } from './token-redaction';

interface SmtpTarget {
  host: string;
  port: number;
  secure: boolean;
  username?: string;
  password?: string;
}

const emails = () =>
  counter({ name: 'market_emails_total', help: 'Emails handed to SMTP or the log, by result (sent, failed) and transport (smtp, log)', labelNames: ['result', 'transport'] });

/** Sends over SMTP: the admin settings' server when set, else the environment's; with neither, writes to the log. */
@Injectable()
export class Mailer {
  private readonly logger = new Logger('Mailer');
  private transport: { key: string; transporter: Transporter } | null = null;

  constructor(
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
    private readonly settings: SettingsClient,
  ) {}

  private async target(): Promise<SmtpTarget | null> {
    // Never the built-in defaults: with the admin service unreachable and nothing known yet, "no SMTP host" would send
    // real mail to the log and call it delivered. Failing instead retries the job once settings can be read.
    const settings = await this.settings.get({ requireKnown: true });
    if (settings.smtp_host) {
      return {
        host: settings.smtp_host,
        port: settings.smtp_port,
        secure: settings.smtp_port === 465,
        username: settings.smtp_username || undefined,
        password: settings.smtp_password || undefined,
      };
    }
    if (this.config.SMTP_HOST) {
      return {
        host: this.config.SMTP_HOST,
        port: this.config.SMTP_PORT,
        secure: this.config.SMTP_SECURE,
        username: this.config.SMTP_USERNAME,
        password: this.config.SMTP_PASSWORD,
      };
    }
    return null;
  }

  // One transport per SMTP target (a connection per email); a settings change builds a new one.
  private transporter(target: SmtpTarget): Transporter {
    const key = JSON.stringify(target);
    if (this.transport?.key !== key) {
      this.transport?.transporter.close();
      this.transport = {
        key,
        transporter: nodemailer.createTransport({
          host: target.host,
          port: target.port,
          secure: target.secure,
          auth: target.username ? { user: target.username, pass: target.password } : undefined,
          connectionTimeout: 10_000,
          // A server that accepts the connection and then stalls must not hold a worker slot for nodemailer's 10 minutes.
          greetingTimeout: 30_000,
          socketTimeout: 60_000,
        }),
      };
    }
    return this.transport.transporter;
  }

  /** Delivers one email and says how. */
  async send(to: string, email: RenderedEmail): Promise<'smtp' | 'log'> {
    const target = await this.target();
    if (!target) {
      // The log is the mailbox of a development machine; in production it is read by operators, so one-time links
      // lose their token there (ADR 0031): configure SMTP for real mail.
      const text = this.config.NODE_ENV === 'production' ? redactTokens(email.text) : email.text;
      this.logger.log({ msg: 'Email (no SMTP configured)', to, subject: email.subject, text, headers: email.headers });
      emails().inc({ result: 'sent', transport: 'log' });
      return 'log';
    }
    try {
      await this.transporter(target).sendMail({ from: this.config.MAIL_FROM, to, replyTo: email.replyTo, subject: email.subject, text: email.text, html: email.html, headers: email.headers });
    } catch (error) {
      emails().inc({ result: 'failed', transport: 'smtp' });
      throw error;
    }
    emails().inc({ result: 'sent', transport: 'smtp' });
    this.logger.log({ msg: 'Email sent', to, subject: email.subject, smtp: `${target.host}:${target.port}` });
    return 'smtp';
  }

  /** True when optional emails may go out (D19: with email_notifications off only verification and reset do). */
  async notificationsEnabled(): Promise<boolean> {
    return (await this.settings.get()).email_notifications;
  }
}
