import { centsToDollars } from '@market/domain';
import { Injectable } from '@nestjs/common';
import type { Actor, AdminTransactionsQuery, AdminTransactionsResponse, InvoiceAnalytics } from '@market/contracts';
import { publicProfiles, requireAdmin, ServiceRpc } from '@market/server-kit';
import { UNKNOWN_USER } from '../invoices/invoice.presenter';
import { AdminBillingRepository, invoiceStatusesOf, TRANSACTION_STATUS_OF } from './admin-billing.repository';

const TRANSACTIONS_LIMIT = 1000;

/** The admin Transactions and Analytics tabs (D20, SPEC §3): real admins only, never under impersonation. */
@Injectable()
export class AdminBillingService {
  constructor(
    private readonly repository: AdminBillingRepository,
    private readonly rpc: ServiceRpc,
  ) {}

  /** Invoices as transactions, newest first, with buyer and seller usernames. */
  async transactions(actor: Actor | null, query: AdminTransactionsQuery): Promise<AdminTransactionsResponse> {
    requireAdmin(actor);
    const rows = await this.repository.transactions(query.status === 'all' ? null : invoiceStatusesOf(query.status), TRANSACTIONS_LIMIT);
    const names = await publicProfiles(this.rpc, rows.flatMap((row) => [row.buyer_id, row.seller_id]));
    const party = (id: string) => ({ id, username: names.get(id)?.username ?? UNKNOWN_USER });
    return {
      transactions: rows.map((row) => ({
        id: row.id,
        transaction_id: row.invoice_number,
        listing_id: row.listing_id,
        listing_title: row.website_title,
        buyer: party(row.buyer_id),
        seller: party(row.seller_id),
        amount: centsToDollars(row.amount_cents),
        status: TRANSACTION_STATUS_OF[row.status],
        invoice_status: row.status,
        payment_status: row.payment_status,
        date: new Date(row.created_at).toISOString(),
      })),
    };
  }

  /** The invoice analytics now (ADR 0021); top customers named by their public name, else username. */
  async analytics(actor: Actor | null, now = new Date()): Promise<InvoiceAnalytics> {
    requireAdmin(actor);
    const figures = await this.repository.analytics(now);
    const names = await publicProfiles(this.rpc, figures.top_customers.map((c) => c.customer_id));
    return {
      ...figures,
      top_customers: figures.top_customers.map((customer) => {
        const profile = names.get(customer.customer_id);
        return { customer_id: customer.customer_id, customer_name: profile?.name || profile?.username || UNKNOWN_USER, revenue: customer.revenue };
      }),
    };
  }
}
