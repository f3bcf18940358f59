import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { RPC, type AdminStats } from '@market/contracts';

/** Counts this service owns. No invoice or payment exists before issue 6 adds them, so the count is zero today. */
@Controller()
export class BillingStatsController {
  @MessagePattern(RPC.billing.stats)
  stats(): Pick<AdminStats, 'total_transactions'> {
    return { total_transactions: 0 };
  }
}
