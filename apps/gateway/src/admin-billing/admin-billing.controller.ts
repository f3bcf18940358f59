import { Controller, Query } from '@nestjs/common';
import { API, RPC, type Actor, type AdminTransactionsQuery } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** Admin Transactions and Analytics (D20, SPEC §3, ADR 0021): real admins only; the billing service computes. */
@Controller()
export class AdminBillingController {
  constructor(private readonly rpc: GatewayRpc) {}

  /** Invoices as transactions, newest first (1000), optionally one status group. */
  @Route(API.adminBilling.transactions)
  transactions(@CurrentActor() actor: Actor, @Query() query: AdminTransactionsQuery) {
    return this.rpc.call(RPC.billing.adminTransactions, query, actor);
  }

  /** Invoice counts, money, rates, aging, top customers and 30 days of paid revenue. */
  @Route(API.adminBilling.invoiceAnalytics)
  analytics(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.adminInvoiceAnalytics, {}, actor);
  }
}
