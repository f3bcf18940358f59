import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { RPC, type AdminStats } from '@market/contracts';
import { InvoicesRepository } from '../invoices/invoices.repository';

/** Counts this service owns: a transaction is a paid invoice. */
@Controller()
export class BillingStatsController {
  constructor(private readonly invoices: InvoicesRepository) {}

  @MessagePattern(RPC.billing.stats)
  async stats(): Promise<Pick<AdminStats, 'total_transactions'>> {
    return { total_transactions: await this.invoices.countPaid() };
  }
}
