import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CARD_COLUMNS, type CardRecord } from '../listings/listing-card.columns';

/** A seller page's live listings (ADR 0083): the cards browse shows, of one seller's active listings. */
@Injectable()
export class SellerListingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The newest `limit` active listings' cards of a seller, and how many active listings they have. */
  async live(sellerId: string, limit: number): Promise<{ cards: CardRecord[]; total: number }> {
    const [cards, [count]]: [CardRecord[], { total: number }[]] = await Promise.all([
      this.dataSource.query(`SELECT ${CARD_COLUMNS} FROM listings WHERE seller_id = $1 AND status = 'active' ORDER BY created_at DESC, id DESC LIMIT $2`, [sellerId, limit]),
      this.dataSource.query(`SELECT count(*)::int AS total FROM listings WHERE seller_id = $1 AND status = 'active'`, [sellerId]),
    ]);
    return { cards, total: count.total };
  }
}
