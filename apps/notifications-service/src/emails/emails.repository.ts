import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { EmailLogEntry } from '@market/contracts';
import type { RenderedEmail } from './email-templates';
import { redactedEmail, redactTokens } from './token-redaction';

export interface EmailRecord {
  job_id: string;
  kind: string;
  to_address: string;
  subject: string;
  transport: 'smtp' | 'log';
  sent_at: Date;
}

/** The record of every email delivered, one row per job. */
@Injectable()
export class EmailsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records a delivery; the bodies are kept only when no SMTP server took the email (the log is the mailbox), and never
   * with a usable one-time token: admins read them, and no admin may open another's account (ADR 0031).
   */
  async record(input: { jobId: string; kind: string; to: string; email: RenderedEmail; transport: 'smtp' | 'log'; requestId: string | null }): Promise<void> {
    const keep = input.transport === 'log';
    const kept = redactedEmail(input.email);
    await this.dataSource.query(
      `INSERT INTO emails (job_id, kind, to_address, subject, text_body, html_body, transport, request_id, headers)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (job_id) DO NOTHING`,
      [input.jobId, input.kind, input.to, input.email.subject, keep ? kept.text : '', keep ? kept.html : '', input.transport, input.requestId, keep && input.email.headers ? JSON.stringify(input.email.headers) : null],
    );
  }

  /** True when the job's email was already delivered (recorded). */
  async wasSent(jobId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM emails WHERE job_id = $1', [jobId]);
    return rows.length > 0;
  }

  /** The latest emails, newest first, for the admin's view; tokens redacted again for rows kept before that rule. */
  async recent(limit: number): Promise<EmailLogEntry[]> {
    // Ordered by the table's bigint id: the output column `id` is text, and "99" sorts above "100".
    const rows: EmailLogEntry[] = await this.dataSource.query(
      `SELECT e.id::text AS id, e.kind, e.to_address, e.subject, e.text_body, e.transport, e.sent_at FROM emails e ORDER BY e.id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ ...row, text_body: redactTokens(row.text_body) }));
  }

  /** Emails sent to one address, newest first. */
  sentTo(address: string): Promise<EmailRecord[]> {
    return this.dataSource.query(
      `SELECT job_id, kind, to_address, subject, transport, sent_at FROM emails
       WHERE lower(to_address) = lower($1) ORDER BY sent_at DESC`,
      [address],
    );
  }
}
