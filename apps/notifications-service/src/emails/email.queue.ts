import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { REDIS, SERVICE_CONFIG, SpanKind, createFailFastRedis, currentRequestId, currentTraceparent, histogram, inSpan, runWithRequestId, watchQueue, withTimeout, type ServiceConfig } from '@market/server-kit';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../notifications.config';
import { emailChangedEmail, holdExpiredEmail, listingApprovedEmail, resetPasswordEmail, verifyEmail, welcomeEmail, type RenderedEmail } from './email-templates';
import { Mailer } from './mailer';
import { noticeEmail, type Notice } from './notice';
import { EmailsRepository } from './emails.repository';
import { BidNoticesRepository } from './bid-notices.repository';
import { bidDigestNotice, type BidDigest } from './bid-email-templates';
import { SearchAlertsRepository, type SearchAlertDigest } from './search-alerts.repository';
import { searchAlertEmail } from './search-alert-email';
import { watchEndingEmail, type EndingSoon } from './watch-ending-email';

export const EMAIL_QUEUE = 'emails';
/**
 * Marketplace notices wait behind every other email: BullMQ runs jobs without a priority first, so a verification or
 * reset link never queues behind a burst of bid notices (D19).
 */
export const NOTICE_PRIORITY = 10;
/**
 * Retries span a day (the age past which a notice is stale, ADR 0024): 30 s doubling to a 30-minute cap, so an SMTP
 * outage of hours delays mail instead of losing it.
 */
export const EMAIL_ATTEMPTS = 54;
// An event handler enqueues inside its database transaction: it gives up quickly rather than hold the transaction.
const ENQUEUE_TIMEOUT_MS = 2_000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 30 * 60_000;

/** The wait before retry number `attemptsMade` (1 after the first failure). */
export function emailRetryDelayMs(attemptsMade: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attemptsMade - 1));
}

// Sent even when email notifications are off (D19); the email-change notice is a security notice (ADR 0034).
const ESSENTIAL = new Set<EmailJob['kind']>(['verify_email', 'reset_password', 'email_changed']);

interface JobBase {
  to: string;
  username: string;
  request_id: string | null;
  /** The trace the job was enqueued in; the worker continues it (ADR 0049). Absent on jobs enqueued before tracing. */
  traceparent?: string | null;
}
export type EmailJob =
  | (JobBase & { kind: 'welcome' })
  | (JobBase & { kind: 'verify_email' | 'reset_password'; token: string })
  /** To the old address: the change and its undo link (ADR 0034). */
  | (JobBase & { kind: 'email_changed'; token: string; new_email: string })
  | (JobBase & { kind: 'listing_approved'; listing_id: string; title: string; expires_at: string })
  | (JobBase & { kind: 'hold_expired'; invoice_id: string; invoice_number: string; website_title: string; test_mode?: boolean })
  /** A marketplace notice (D19); `category` names it in the email log, `essential` sends it whatever the setting says. */
  | (JobBase & { kind: 'notice'; category: string; essential: boolean; notice: Notice })
  /** A seller's digest of new bids on a listing (ADR 0056), delayed to the end of its window; its words come from the window. */
  | (JobBase & { kind: 'bid_digest'; digest_id: string; listing_id: string })
  /** A saved search's new matches (ADR 0074), delayed to when its window allows; its words come from the digest. */
  | (JobBase & { kind: 'search_alert'; digest_id: string })
  /** A watched auction ends within the day (ADR 0074). */
  | (JobBase & { kind: 'watch_ending'; ending: EndingSoon });

/**
 * Seconds from when an email was due (queued, or the end of its delay) to its hand-over to SMTP or the log, by class:
 * `account` (verification, reset, change: essential) or `notice` (docs/slo.md).
 */
const deliveryDelay = () =>
  histogram({
    name: 'market_email_delivery_delay_seconds',
    help: 'Seconds from an email being due (queued, or its delay over) to its hand-over, by class (account, notice)',
    labelNames: ['class'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 21600],
  });

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** BullMQ queue and worker for outgoing email, with retries and exponential backoff. */
@Injectable()
export class EmailQueue implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EmailQueue');
  private readonly queue: Queue<EmailJob>;
  private readonly queueConnection: Redis;
  private readonly unwatch: () => void;
  private worker: Worker<EmailJob> | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly serviceConfig: ServiceConfig,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
    private readonly mailer: Mailer,
    private readonly emails: EmailsRepository,
    private readonly bidNotices: BidNoticesRepository,
    private readonly searchAlerts: SearchAlertsRepository,
  ) {
    // Its own connection that fails at once while Redis is away: an event handler's enqueue then fails and the event
    // is retried later, instead of waiting inside its database transaction until Redis is back.
    this.queueConnection = createFailFastRedis(serviceConfig.REDIS_URL, 'notifications-email-queue');
    this.queue = new Queue<EmailJob>(EMAIL_QUEUE, { connection: this.queueConnection, prefix: serviceConfig.QUEUE_PREFIX });
    // Depth, delays and failures on each scrape, read over the fail-fast connection (ADR 0048).
    this.unwatch = watchQueue(this.queue);
  }

  onApplicationBootstrap() {
    this.worker = new Worker<EmailJob>(EMAIL_QUEUE, (job) => this.process(job), {
      connection: this.redis,
      prefix: this.serviceConfig.QUEUE_PREFIX,
      concurrency: 4,
      settings: { backoffStrategy: (attemptsMade: number) => emailRetryDelayMs(attemptsMade) },
    });
    this.worker.on('failed', (job, error) => {
      const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
      if (final) this.logger.error(`Email job ${job.id} to ${job.data.to} failed for good after ${job.attemptsMade} attempts: ${error.message}`);
      else this.logger.warn(`Email job ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`);
    });
  }

  async onApplicationShutdown() {
    this.unwatch();
    await this.worker?.close();
    await this.queue.close();
    this.queueConnection.disconnect();
  }

  /** Enqueues an email once per key (a redelivered event finds the job already there), at once or after `delayMs`. */
  async enqueue(key: string, job: DistributiveOmit<EmailJob, 'request_id' | 'traceparent'>, options: { delayMs?: number } = {}): Promise<void> {
    const carriesToken = 'token' in job;
    const notice = job.kind === 'bid_digest' || job.kind === 'search_alert' || job.kind === 'watch_ending' || (job.kind === 'notice' && !job.essential);
    const added = this.queue.add(job.kind, { ...job, request_id: currentRequestId(), traceparent: currentTraceparent() } as EmailJob, {
      jobId: key,
      delay: options.delayMs,
      priority: notice ? NOTICE_PRIORITY : undefined,
      attempts: EMAIL_ATTEMPTS,
      backoff: { type: 'custom' },
      // Jobs that carry a one-time token leave Redis as soon as they are done.
      removeOnComplete: carriesToken ? true : { age: 7 * 24 * 3600 },
      removeOnFail: carriesToken ? { age: 24 * 3600 } : { age: 30 * 24 * 3600 },
    });
    // A late add (Redis back after the timeout) is harmless: the retried event finds the job under the same id.
    await withTimeout(added, ENQUEUE_TIMEOUT_MS, 'Redis (email queue)');
  }

  /** Where a job is (waiting, active, completed, failed...), or 'unknown' once removed. */
  jobState(key: string): Promise<string> {
    return this.queue.getJobState(key);
  }

  private process(job: Job<EmailJob>): Promise<void> {
    const span = { kind: SpanKind.CONSUMER, parent: job.data.traceparent ?? null, attributes: { 'messaging.system': 'bullmq', 'email.kind': job.data.kind } };
    return runWithRequestId(job.data.request_id, () => inSpan(`email job ${job.data.kind}`, span, async () => {
      // A digest closes its window first, even when no email goes out, so the next bid opens another (ADR 0056).
      const digest = job.data.kind === 'bid_digest' ? await this.bidNotices.closeDigest(job.data.digest_id) : undefined;
      if (digest === null) return;
      const alert = job.data.kind === 'search_alert' ? await this.searchAlerts.closeDigest(job.data.digest_id) : undefined;
      if (alert === null) return;
      // A reminder that waited (the queue, retries) until its auction ended would only mislead.
      if (job.data.kind === 'watch_ending' && Date.parse(job.data.ending.expires_at) <= Date.now()) {
        this.logger.log(`Skipping watch_ending email to ${job.data.to}: the auction ended before it could go out`);
        return;
      }
      const essential = ESSENTIAL.has(job.data.kind) || (job.data.kind === 'notice' && job.data.essential);
      if (!essential && !(await this.mailer.notificationsEnabled())) {
        this.logger.log(`Skipping ${job.data.kind} email to ${job.data.to}: email notifications are off`);
        return;
      }
      const jobId = String(job.id);
      // A retry of a job whose email went out (its record failed, or the worker died after sending) sends nothing.
      if (await this.emails.wasSent(jobId)) return;
      const email = this.render(job.data, digest, alert);
      const transport = await this.mailer.send(job.data.to, email);
      const dueAt = job.timestamp + (job.opts.delay ?? 0);
      deliveryDelay().observe({ class: essential ? 'account' : 'notice' }, Math.max(0, Date.now() - dueAt) / 1000);
      try {
        await this.emails.record({
          jobId,
          kind: job.data.kind === 'notice' ? job.data.category : job.data.kind,
          to: job.data.to,
          email,
          transport,
          requestId: job.data.request_id,
        });
      } catch (error) {
        // The email is out: failing the job now would send it again on every retry.
        this.logger.error(`Email job ${jobId} was sent but not recorded: ${(error as Error).message}`);
      }
    }));
  }

  private render(job: EmailJob, digest?: BidDigest, alert?: SearchAlertDigest): RenderedEmail {
    switch (job.kind) {
      case 'welcome':
        return welcomeEmail({ username: job.username, publicUrl: this.config.PUBLIC_URL });
      case 'verify_email':
        return verifyEmail({ username: job.username, token: job.token, publicUrl: this.config.PUBLIC_URL });
      case 'reset_password':
        return resetPasswordEmail({ username: job.username, token: job.token, publicUrl: this.config.PUBLIC_URL });
      case 'email_changed':
        return emailChangedEmail({ username: job.username, newEmail: job.new_email, token: job.token, publicUrl: this.config.PUBLIC_URL });
      case 'listing_approved':
        return listingApprovedEmail({ ...job, publicUrl: this.config.PUBLIC_URL });
      case 'hold_expired':
        return holdExpiredEmail({ ...job, publicUrl: this.config.PUBLIC_URL });
      case 'notice':
        return noticeEmail({ username: job.username, notice: job.notice, publicUrl: this.config.PUBLIC_URL });
      case 'bid_digest':
        if (!digest) throw new Error(`Bid digest ${job.digest_id} was not read before rendering`);
        return noticeEmail({ username: job.username, notice: bidDigestNotice(digest), publicUrl: this.config.PUBLIC_URL });
      case 'search_alert':
        if (!alert) throw new Error(`Search alert ${job.digest_id} was not read before rendering`);
        return searchAlertEmail({ username: job.username, digest: alert, publicUrl: this.config.PUBLIC_URL });
      case 'watch_ending':
        return watchEndingEmail({ username: job.username, ending: job.ending, publicUrl: this.config.PUBLIC_URL });
    }
  }
}
