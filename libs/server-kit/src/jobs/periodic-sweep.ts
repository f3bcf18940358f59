import type { Logger } from '@nestjs/common';

/**
 * Work every replica runs on a timer (the database decides what is due, so replicas may overlap): a run already under
 * way is joined, not doubled; a failure is logged as `${label} failed: …` and answered with `onFailure`, and the next
 * tick tries again. The timer never keeps the process alive.
 */
export class PeriodicSweep<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly options: { label: string; intervalMs: number; logger: Logger; onFailure: T },
    private readonly work: (now: Date) => Promise<T>,
  ) {}

  /** Starts the timer; with `runNow`, also runs once at once. */
  start(runNow: boolean): void {
    if (runNow) void this.run();
    this.timer = setInterval(() => void this.run(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One run (joined if one is under way). */
  run(now = new Date()): Promise<T> {
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        return await this.work(now);
      } catch (error) {
        this.options.logger.warn(`${this.options.label} failed: ${(error as Error).message}`);
        return this.options.onFailure;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
