import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { SaleRole } from '@market/domain';

/** A sale whose money reached the seller (sale.completed): who may review whom, and until when. */
export interface CompletedSaleRow {
  invoice_id: string;
  invoice_number: string;
  listing_id: string;
  buyer_id: string;
  seller_id: string;
  website_title: string;
  completed_at: Date;
  reviews_close_at: Date;
}

/** A review as stored, with what its visibility depends on: its sale's window and whether the other side wrote. */
export interface ReviewRow {
  id: string;
  invoice_id: string;
  author_id: string;
  subject_id: string;
  author_role: SaleRole;
  stars: number;
  body: string;
  reply: string | null;
  replied_at: Date | null;
  hidden_at: Date | null;
  created_at: Date;
  website_title: string;
  reviews_close_at: Date;
  both_written: boolean;
}

const REVIEW_COLUMNS = `r.id, r.invoice_id, r.author_id, r.subject_id, r.author_role, r.stars, r.body, r.reply, r.replied_at, r.hidden_at,
  r.created_at, s.website_title, s.reviews_close_at,
  EXISTS (SELECT 1 FROM sale_reviews o WHERE o.invoice_id = r.invoice_id AND o.author_role <> r.author_role) AS both_written`;

/**
 * The SQL form of the domain's isReviewVisible (D23), for lists and the rating: not hidden, and both sides wrote or the
 * window closed at $2. The integration tests hold the two to each other.
 */
const VISIBLE = `r.hidden_at IS NULL AND (s.reviews_close_at <= $2 OR
  EXISTS (SELECT 1 FROM sale_reviews o WHERE o.invoice_id = r.invoice_id AND o.author_role <> r.author_role))`;

/** Reads and writes completed_sales and sale_reviews (ADR 0083); the service decides. */
@Injectable()
export class ReviewRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Keeps a completed sale; a redelivered event changes nothing. */
  async recordSale(sale: CompletedSaleRow, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO completed_sales (invoice_id, invoice_number, listing_id, buyer_id, seller_id, website_title, completed_at, reviews_close_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (invoice_id) DO NOTHING`,
      [sale.invoice_id, sale.invoice_number, sale.listing_id, sale.buyer_id, sale.seller_id, sale.website_title, sale.completed_at, sale.reviews_close_at],
    );
  }

  /** A completed sale by invoice; null when there is none. */
  async sale(invoiceId: string): Promise<CompletedSaleRow | null> {
    const [row]: CompletedSaleRow[] = await this.dataSource.query('SELECT * FROM completed_sales WHERE invoice_id = $1', [invoiceId]);
    return row ?? null;
  }

  /**
   * Adds one side's review of a sale while its window is open at `now`; null when that side already wrote one or the
   * window closed meanwhile (the unique pair and the window decide in the statement, not a read before it).
   */
  async insert(review: { invoice_id: string; author_id: string; subject_id: string; author_role: SaleRole; stars: number; body: string }, now: Date): Promise<string | null> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO sale_reviews (invoice_id, author_id, subject_id, author_role, stars, body)
       SELECT invoice_id, $2, $3, $4, $5, $6 FROM completed_sales WHERE invoice_id = $1 AND reviews_close_at > $7
       ON CONFLICT (invoice_id, author_role) DO NOTHING RETURNING id`,
      [review.invoice_id, review.author_id, review.subject_id, review.author_role, review.stars, review.body, now],
    );
    return rows[0]?.id ?? null;
  }

  /** True when this side of the sale has written its review. */
  async hasReviewed(invoiceId: string, role: SaleRole): Promise<boolean> {
    const rows = await this.dataSource.query('SELECT 1 FROM sale_reviews WHERE invoice_id = $1 AND author_role = $2', [invoiceId, role]);
    return rows.length > 0;
  }

  /** One review with its sale's facts; locked for a change inside `manager`'s transaction when given. */
  async review(id: string, manager?: EntityManager): Promise<ReviewRow | null> {
    const lock = manager ? 'FOR UPDATE OF r' : '';
    const [row]: ReviewRow[] = await (manager ?? this.dataSource).query(
      `SELECT ${REVIEW_COLUMNS} FROM sale_reviews r JOIN completed_sales s USING (invoice_id) WHERE r.id = $1 ${lock}`,
      [id],
    );
    return row ?? null;
  }

  /** Sets a review's one reply; false when it already has one or was hidden meanwhile. */
  async reply(id: string, text: string): Promise<boolean> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      'UPDATE sale_reviews SET reply = $2, replied_at = now() WHERE id = $1 AND reply IS NULL AND hidden_at IS NULL',
      [id, text],
    );
    return count === 1;
  }

  /** Hides a review inside the caller's transaction (the audit entry commits with it). */
  async hide(id: string, reason: string, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE sale_reviews SET hidden_at = now(), hidden_reason = $2 WHERE id = $1', [id, reason]);
  }

  /** A user's completed sales as buyer or seller, newest first, with both sides' reviews (at most 200 sales). */
  async salesOf(userId: string): Promise<{ sales: CompletedSaleRow[]; reviews: ReviewRow[] }> {
    const sales: CompletedSaleRow[] = await this.dataSource.query(
      'SELECT * FROM completed_sales WHERE buyer_id = $1 OR seller_id = $1 ORDER BY completed_at DESC LIMIT 200',
      [userId],
    );
    if (sales.length === 0) return { sales, reviews: [] };
    const reviews: ReviewRow[] = await this.dataSource.query(
      `SELECT ${REVIEW_COLUMNS} FROM sale_reviews r JOIN completed_sales s USING (invoice_id) WHERE r.invoice_id = ANY($1::uuid[])`,
      [sales.map((sale) => sale.invoice_id)],
    );
    return { sales, reviews };
  }

  /** A seller's visible reviews by buyers as of `now` (their stars' total and count) and sales completed. */
  async sellerStats(sellerId: string, now: Date): Promise<{ stars_total: number; review_count: number; sales: number }> {
    const [row] = await this.dataSource.query(
      `SELECT coalesce(sum(r.stars), 0)::int AS stars_total, count(r.id)::int AS review_count,
         (SELECT count(*)::int FROM completed_sales WHERE seller_id = $1) AS sales
       FROM sale_reviews r JOIN completed_sales s USING (invoice_id)
       WHERE r.subject_id = $1 AND r.author_role = 'buyer' AND ${VISIBLE}`,
      [sellerId, now],
    );
    return row;
  }

  /** One page of a seller's visible reviews by buyers, newest first. */
  async sellerReviews(sellerId: string, now: Date, offset: number, limit: number): Promise<ReviewRow[]> {
    return this.dataSource.query(
      `SELECT ${REVIEW_COLUMNS} FROM sale_reviews r JOIN completed_sales s USING (invoice_id)
       WHERE r.subject_id = $1 AND r.author_role = 'buyer' AND ${VISIBLE}
       ORDER BY r.created_at DESC, r.id DESC OFFSET $3 LIMIT $4`,
      [sellerId, now, offset, limit],
    );
  }
}
