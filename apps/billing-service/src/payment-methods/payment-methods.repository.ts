import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface PaymentMethodRecord {
  user_id: string;
  provider: 'sandbox' | 'stripe';
  setup_intent_id: string;
  card_last4: string | null;
  saved_at: Date;
}

/** Saved cards and the SetupIntents started for them (ADR 0041); the only SQL of saved cards. */
@Injectable()
export class PaymentMethodsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<PaymentMethodRecord | null> {
    const [row]: PaymentMethodRecord[] = await this.dataSource.query(
      'SELECT user_id::text, provider, setup_intent_id, card_last4, saved_at FROM payment_methods WHERE user_id = $1',
      [userId],
    );
    return row ?? null;
  }

  /** Remembers that a SetupIntent was started for a member (a retry with the same id changes nothing). */
  async recordSetup(setupIntentId: string, userId: string): Promise<void> {
    await this.dataSource.query('INSERT INTO setup_intents (id, user_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [setupIntentId, userId]);
  }

  /** True when the SetupIntent was started for this member. */
  async setupBelongsTo(setupIntentId: string, userId: string): Promise<boolean> {
    const rows = await this.dataSource.query('SELECT 1 FROM setup_intents WHERE id = $1 AND user_id = $2', [setupIntentId, userId]);
    return rows.length > 0;
  }

  /** The member's card is the one this SetupIntent verified: a newer card replaces an older one. */
  async save(record: Omit<PaymentMethodRecord, 'saved_at'>): Promise<PaymentMethodRecord> {
    const [row]: PaymentMethodRecord[] = await this.dataSource.query(
      `INSERT INTO payment_methods (user_id, provider, setup_intent_id, card_last4, saved_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (user_id) DO UPDATE SET provider = EXCLUDED.provider, setup_intent_id = EXCLUDED.setup_intent_id,
         card_last4 = EXCLUDED.card_last4, saved_at = CASE WHEN payment_methods.setup_intent_id = EXCLUDED.setup_intent_id
           THEN payment_methods.saved_at ELSE EXCLUDED.saved_at END
       RETURNING user_id::text, provider, setup_intent_id, card_last4, saved_at`,
      [record.user_id, record.provider, record.setup_intent_id, record.card_last4],
    );
    return row;
  }
}
