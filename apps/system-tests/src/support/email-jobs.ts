import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { eventually } from '@market/server-kit/testing';
import { EMAIL_QUEUE, type EmailJob } from '../../../notifications-service/src/emails/email.queue';

/** Runs `use` with the notifications service's email queue in Redis (as `env` names it), closed afterwards. */
async function withEmailQueue<T>(env: Record<string, string>, use: (queue: Queue<EmailJob>) => Promise<T>): Promise<T> {
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue<EmailJob>(EMAIL_QUEUE, { connection: redis, prefix: env.QUEUE_PREFIX });
  try {
    return await use(queue);
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/**
 * Waits until the email queue has nothing waiting, delayed or running: every email queued so far has been sent or
 * skipped. With a marker event handled after the events under test, this shows no further email is coming from them.
 */
export async function emailQueueIdle(env: Record<string, string>, timeoutMs = 15_000): Promise<void> {
  await withEmailQueue(env, (queue) =>
    eventually(async () => expect(await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active')).toEqual({ waiting: 0, prioritized: 0, delayed: 0, active: 0 }), timeoutMs),
  );
}

/** Waits until an email job matching `match` has completed (its email sent, or skipped by the worker), and returns it. */
export async function emailJobDone(env: Record<string, string>, match: (job: EmailJob) => boolean, timeoutMs = 15_000): Promise<EmailJob> {
  return withEmailQueue(env, (queue) =>
    eventually(async () => {
      const done = (await queue.getJobs(['completed'])).find((job) => job && match(job.data));
      expect(done).toBeDefined();
      return done!.data;
    }, timeoutMs),
  );
}
