import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../notifications.config';
import type { RenderedEmail } from './email-templates';

/** Sends over SMTP when SMTP_HOST is configured; otherwise writes the email to the log. */
@Injectable()
export class Mailer {
  private readonly logger = new Logger('Mailer');
  private readonly transport: Transporter | null;

  constructor(@Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig) {
    this.transport = config.SMTP_HOST
      ? nodemailer.createTransport({
          host: config.SMTP_HOST,
          port: config.SMTP_PORT,
          secure: config.SMTP_SECURE,
          auth: config.SMTP_USERNAME ? { user: config.SMTP_USERNAME, pass: config.SMTP_PASSWORD } : undefined,
        })
      : null;
  }

  /** Delivers one email and says how. */
  async send(to: string, email: RenderedEmail): Promise<'smtp' | 'log'> {
    if (!this.transport) {
      this.logger.log({ msg: 'Email (no SMTP configured)', to, subject: email.subject, text: email.text });
      return 'log';
    }
    await this.transport.sendMail({ from: this.config.MAIL_FROM, to, subject: email.subject, text: email.text, html: email.html });
    this.logger.log({ msg: 'Email sent', to, subject: email.subject });
    return 'smtp';
  }
}
