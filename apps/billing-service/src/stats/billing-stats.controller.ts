import { Controller } from '@nestjs/common';
import { RPC } from '@market/contracts';
import { RpcHandler } from '@market/server-kit';
import { InvoicesRepository } from '../invoices/invoices.repository';

/** Counts this service owns: a transaction is a paid invoice. */
@Controller()
export class BillingStatsController {
  constructor(private readonly invoices: InvoicesRepository) {}

  @RpcHandler(RPC.billing.stats)
  async stats() {
    return { total_transactions: await this.invoices.countPaid() };
  }
}
