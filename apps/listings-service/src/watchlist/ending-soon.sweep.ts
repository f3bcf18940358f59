import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { appendEvent, OutboxRelay, ScheduledSweep } from '@market/server-kit';
import { UnsubscribeLinks } from '../saved-searches/unsubscribe-links';
import { LISTINGS_CONFIG, type ListingsConfig } from '../listings.config';
import { WatchRemindersRepository } from './watch-reminders.repository';

/** Reminders claimed per transaction: a burst of auctions ending together is sent in rounds of this many. */
const BATCH = 500;

/**
 * The "ending in 24 hours" email of a watched auction (ADR 0074): every WATCH_REMINDER_SWEEP_MS one replica (an advisory
 * lock, ADR 0046) claims the watches whose auction ends within the day and writes one watch.ending_soon each, in the
 * transaction that marks them reminded, so a watcher is reminded once.
 */
@Injectable()
export class EndingSoonSweep extends ScheduledSweep<number> {
  constructor(
    private readonly reminders: WatchRemindersRepository,
    private readonly links: UnsubscribeLinks,
    private readonly relay: OutboxRelay,
    private readonly dataSource: DataSource,
    @Optional() @Inject(LISTINGS_CONFIG) config: Pick<ListingsConfig, 'WATCH_REMINDER_SWEEP_MS'> | null,
  ) {
    super({ label: 'Ending-soon sweep', context: 'EndingSoonSweep', intervalMs: config?.WATCH_REMINDER_SWEEP_MS ?? 60_000, onFailure: 0, lock: dataSource });
  }

  /** Sends what is due; answers how many reminders were written. */
  protected async work(now: Date): Promise<number> {
    let written = 0;
    for (;;) {
      const round = await this.dataSource.transaction(async (manager) => {
        const due = await this.reminders.claimDue(manager, now, BATCH);
        for (const reminder of due) {
          await appendEvent(manager, 'watch.ending_soon', {
            user_id: reminder.user_id,
            listing_id: reminder.listing_id,
            listing_title: reminder.title,
            expires_at: new Date(reminder.expires_at).toISOString(),
            current_price: Number(reminder.price),
            bid_count: reminder.bid_count,
            unsubscribe_token: this.links.tokenFor({ kind: 'watch_reminders', user_id: reminder.user_id }),
          });
        }
        return due.length;
      });
      written += round;
      // A short round means nothing more was due, or opted-out watches (marked without an event) filled it: the next
      // tick takes any rest.
      if (round === 0 || round < BATCH) break;
    }
    if (written > 0) {
      this.logger.log(`${written} ending-soon reminders written`);
      setImmediate(() => this.relay.kick());
    }
    return written;
  }
}
