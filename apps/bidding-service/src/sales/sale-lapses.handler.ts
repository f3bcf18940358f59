import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { UnwindSale } from './unwind-sale';
import { CloseJobs } from '../close/close-jobs';

/** Takes back sales whose invoice lapsed unpaid or an admin cancelled (ADR 0043), from billing's sale.lapsed. */
@Injectable()
export class SaleLapsesHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly unwinding: UnwindSale,
    private readonly closeJobs: CloseJobs,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('sale.lapsed', async (event, manager) => {
      const result = await this.unwinding.unwind(event.payload, manager);
      // A sale live again ends at its end like any other (the job only asks the database what is due; the sweep is the backstop).
      if (result.unwound && result.status === 'active' && result.expires_at) await this.closeJobs.schedule(event.payload.listing_id, result.expires_at);
    });
  }
}
