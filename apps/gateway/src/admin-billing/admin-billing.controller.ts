import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AdminTransactionsQuerySchema, RPC, type Actor, type AdminTransactionsResponse, type InvoiceAnalytics } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse } from '../http/zod-body';
import { AdminGuard, CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

/** Admin Transactions and Analytics (D20, SPEC §3, ADR 0021): real admins only; the billing service computes. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard, AdminGuard)
@Controller('admin')
export class AdminBillingController {
  constructor(private readonly rpc: GatewayRpc) {}

  /** Invoices as transactions, newest first (1000), optionally one status group. */
  @Get('transactions')
  transactions(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<AdminTransactionsResponse> {
    return this.rpc.send(RPC.billing.adminTransactions, parse(AdminTransactionsQuerySchema, query, 'query'), actor);
  }

  /** Invoice counts, money, rates, aging, top customers and 30 days of paid revenue. */
  @Get('invoice-analytics')
  analytics(@CurrentActor() actor: Actor): Promise<InvoiceAnalytics> {
    return this.rpc.send(RPC.billing.adminInvoiceAnalytics, {}, actor);
  }
}
