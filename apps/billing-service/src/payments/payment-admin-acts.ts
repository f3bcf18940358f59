import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { adminActed, type Actor } from '@market/contracts';
import type { PaymentIntentStatus } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import type { AdminPaymentIntentRecord } from './payment-intents.repository';

export type AdminPaymentAction = 'payment.captured' | 'payment.refunded';

/**
 * Audits an admin's capture or refund (ADR 0032) in its own transaction, right after the provider moved the money
 * and before the intent is reconciled: a failed reconciliation (the provider's retrieve, the database) can no longer
 * leave moved money without an entry. Once per intent and action (admin_payment_acts), however often the admin retries.
 */
@Injectable()
export class PaymentAdminActs {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes the act's admin.acted event unless this intent's act was recorded already; true when written now. */
  record(admin: Actor, intent: AdminPaymentIntentRecord, action: AdminPaymentAction, after: PaymentIntentStatus): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const first: unknown[] = await manager.query(
        `INSERT INTO admin_payment_acts (payment_intent_id, action, admin_id) VALUES ($1, $2, $3)
         ON CONFLICT (payment_intent_id, action) DO NOTHING RETURNING payment_intent_id`,
        [intent.id, action, admin.user_id],
      );
      if (first.length === 0) return false;
      await appendEvent(
        manager,
        'admin.acted',
        adminActed(admin, {
          action,
          target_type: 'payment',
          target_id: intent.id,
          target_label: intent.invoice_number,
          before: { status: intent.status },
          after: { status: after },
        }),
      );
      return true;
    });
  }
}
