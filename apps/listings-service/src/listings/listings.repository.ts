import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { Pool } from 'pg';
import type { BrowseListingsQuery, CreateListing } from '@market/contracts';
import type { ListingStatus, PriceUpdate } from '@market/domain';
import { CARD_COLUMNS, type CardRecord } from './listing-card.columns';
import { applyBidPrices, applyRepricedPrice, type RepricedListing } from './listing-prices.repository';
import { buildBrowseGrid, buildBrowseQuery, type GridCell } from './browse-query';

/** A listing row as stored; money columns come back as numbers (bigint parsed, always whole dollars). */
export interface ListingRecord {
  id: string;
  seller_id: string;
  title: string;
  description: string;
  category: string;
  listing_type: 'auction' | 'fixed';
  auction_type: 'auto' | 'manual';
  status: ListingStatus;
  featured: boolean;
  website_url: string;
  monthly_revenue: number;
  annual_revenue: number;
  monthly_traffic: number;
  monthly_expenses: number;
  profit_margin: number;
  business_age_months: number;
  monetization_methods: string[];
  starting_price: number;
  reserve_price: number | null;
  buy_now_price: number | null;
  current_bid: number | null;
  bid_count: number;
  /** Bidding's price version (ADR 0038): bid.placed and auction.repriced apply only above it. */
  price_version?: number;
  price: number;
  duration_days: number;
  approved_at: Date | null;
  expires_at: Date | null;
  key_metrics: string | null;
  growth_opportunities: string | null;
  included_assets: string | null;
  reason_for_selling: string | null;
  /** The seller proved control of the current website address's domain (ADR 0040), when and how. */
  ownership_verified: boolean;
  ownership_verified_at: Date | null;
  ownership_method: 'dns' | 'file' | null;
  /** Revenue verified by Stripe, traffic by Google Analytics 4, and current (D24, ADR 0084): the cards' badges and browse filters. */
  revenue_verified: boolean;
  traffic_verified: boolean;
  screenshots: string[];
  /** Why an admin cancelled it (ADR 0042); null unless cancelled. */
  cancel_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export const LISTING_COLUMNS = `id, seller_id, title, description, category, listing_type, auction_type, status, featured, website_url,
  (ownership_verified_at IS NOT NULL AND ownership_verified_url = website_url) AS ownership_verified, ownership_verified_at, ownership_method,
  revenue_verified, traffic_verified,
  monthly_revenue::float8 AS monthly_revenue, annual_revenue::float8 AS annual_revenue, monthly_traffic::float8 AS monthly_traffic,
  monthly_expenses::float8 AS monthly_expenses, profit_margin::float8 AS profit_margin, business_age_months, monetization_methods,
  starting_price::float8 AS starting_price, reserve_price::float8 AS reserve_price, buy_now_price::float8 AS buy_now_price,
  current_bid::float8 AS current_bid, bid_count, price_version, price::float8 AS price, duration_days, approved_at, expires_at, key_metrics,
  growth_opportunities, included_assets, reason_for_selling, screenshots, cancel_reason, created_at, updated_at`;

const ACTIVE_CARDS_BY_IDS = { name: 'listings-active-cards-by-ids', text: `SELECT ${CARD_COLUMNS} FROM listings WHERE id = ANY($1::uuid[])` };

/** The only place that reads and writes listings.listings. */
@Injectable()
export class ListingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts a listing for a seller in the given status. */
  async insert(
    sellerId: string,
    listing: CreateListing,
    status: ListingStatus,
    screenshots: string[] = [],
    manager?: EntityManager,
  ): Promise<ListingRecord> {
    const rows: ListingRecord[] = await this.db(manager).query(
      `INSERT INTO listings (id, seller_id, title, description, category, listing_type, auction_type, status, website_url,
        monthly_revenue, annual_revenue, monthly_traffic, monthly_expenses, profit_margin, business_age_months, monetization_methods,
        starting_price, reserve_price, buy_now_price, duration_days, key_metrics, growth_opportunities, included_assets,
        reason_for_selling, screenshots)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
       RETURNING ${LISTING_COLUMNS}`,
      [
        randomUUID(), sellerId, listing.title, listing.description, listing.category, listing.listing_type, listing.auction_type, status,
        listing.website_url, listing.monthly_revenue, listing.annual_revenue, listing.monthly_traffic, listing.monthly_expenses,
        listing.profit_margin, listing.business_age_months, listing.monetization_methods, listing.starting_price,
        listing.reserve_price ?? null, listing.buy_now_price ?? null, listing.duration_days, listing.key_metrics ?? null,
        listing.growth_opportunities ?? null, listing.included_assets ?? null, listing.reason_for_selling ?? null, screenshots,
      ],
    );
    return rows[0];
  }

  /**
   * Runs fn in one transaction (a change and its event commit together). A deadlock or serialization failure rolls
   * everything back, so the whole transaction is simply tried again (at most three times).
   */
  async transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.dataSource.transaction(fn);
      } catch (error) {
        const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
        if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw error;
      }
    }
  }

  /** One listing; with `lock`, the row stays locked until the caller's transaction ends. */
  async findById(id: string, manager?: EntityManager, lock = false): Promise<ListingRecord | null> {
    const rows: ListingRecord[] = await this.db(manager).query(
      `SELECT ${LISTING_COLUMNS} FROM listings WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Replaces the seller's fields and screenshots of a listing; returns it as it now is. */
  async updateFields(id: string, listing: CreateListing, screenshots: string[], manager: EntityManager): Promise<ListingRecord> {
    return this.updateOne(
      manager,
      `title = $2, description = $3, category = $4, listing_type = $5, auction_type = $6, website_url = $7,
         monthly_revenue = $8, annual_revenue = $9, monthly_traffic = $10, monthly_expenses = $11, profit_margin = $12,
         business_age_months = $13, monetization_methods = $14, starting_price = $15, reserve_price = $16, buy_now_price = $17,
         duration_days = $18, key_metrics = $19, growth_opportunities = $20, included_assets = $21, reason_for_selling = $22,
         screenshots = $23`,
      [
        id, listing.title, listing.description, listing.category, listing.listing_type, listing.auction_type, listing.website_url,
        listing.monthly_revenue, listing.annual_revenue, listing.monthly_traffic, listing.monthly_expenses, listing.profit_margin,
        listing.business_age_months, listing.monetization_methods, listing.starting_price, listing.reserve_price ?? null,
        listing.buy_now_price ?? null, listing.duration_days, listing.key_metrics ?? null, listing.growth_opportunities ?? null,
        listing.included_assets ?? null, listing.reason_for_selling ?? null, screenshots,
      ],
    );
  }

  setStatus(id: string, status: ListingStatus, manager: EntityManager): Promise<ListingRecord> {
    return this.updateOne(manager, 'status = $2', [id, status]);
  }

  /**
   * Bids the bidding service accepted (bid.placed), a batch at a time (ADR 0057): per listing only the newest price and
   * count are written, in listing id order. Applied only when the price version is newer than the stored one (ADR 0038;
   * an event without one was written when the count was the version), so a redelivered or late event never moves the
   * price back. The end only moves later.
   */
  applyBids(bids: readonly PriceUpdate[], manager: EntityManager): Promise<void> {
    return applyBidPrices(bids, manager);
  }

  /**
   * Bids left the auction without a sale (auction.repriced, ADR 0038): the price and count as they now stand, which may
   * be lower; applied only above the stored price version, never to a sold listing (it shows its sale price) nor a
   * cancelled one (its bids are void, ADR 0042).
   */
  applyRepriced(repriced: RepricedListing, manager: EntityManager): Promise<void> {
    return applyRepricedPrice(repriced, manager);
  }

  /**
   * Ends a listing's sale as the bidding service decided (D8): sold from any status (an auction then shows its sale
   * price as the current bid), expired only while it was live. Returns the row when it changed, null when it was
   * already so (events may repeat or cross).
   */
  async endSale(id: string, status: 'sold' | 'expired', price: number | null, manager: EntityManager): Promise<ListingRecord | null> {
    if (status === 'expired') {
      const [row] = await this.update(manager, `status = 'expired'`, `id = $1 AND status IN ('active', 'paused', 'draft', 'pending')`, [id]);
      return row ?? null;
    }
    const [row] = await this.update(
      manager,
      `status = 'sold', current_bid = CASE WHEN listing_type = 'auction' AND $2::bigint IS NOT NULL THEN $2::bigint ELSE current_bid END`,
      `id = $1 AND (status <> 'sold' OR (listing_type = 'auction' AND $2::bigint IS NOT NULL AND current_bid IS DISTINCT FROM $2::bigint))`,
      [id, price],
    );
    return row ?? null;
  }

  /** An admin sends a listing back to review: its approval is withdrawn until an admin approves it again. */
  sendBackToReview(id: string, manager: EntityManager): Promise<ListingRecord> {
    return this.updateOne(manager, `status = 'pending', approved_at = NULL, expires_at = NULL`, [id]);
  }

  /** An admin's cancellation (ADR 0042): final, with when and why; null when the listing is sold or already cancelled. */
  async cancel(id: string, reason: string, now: Date, manager: EntityManager): Promise<ListingRecord | null> {
    const [row] = await this.update(
      manager,
      // Its bids are void (ADR 0042): the page shows no current bid or count for a sale no one will pay for.
      `status = 'cancelled', featured = false, cancelled_at = $2, cancel_reason = $3, current_bid = NULL, bid_count = 0`,
      `id = $1 AND status NOT IN ('sold', 'cancelled')`,
      [id, now, reason],
    );
    return row ?? null;
  }

  setFeatured(id: string, featured: boolean, manager: EntityManager): Promise<ListingRecord> {
    return this.updateOne(manager, 'featured = $2', [id, featured]);
  }

  async remove(id: string, manager: EntityManager): Promise<void> {
    await manager.query('DELETE FROM listings WHERE id = $1', [id]);
  }

  /**
   * Records that the domain of `websiteUrl` was proven (ADR 0040), only while it is still the listing's address (an edit
   * racing the check wins). Not a change of the sale terms: updated_at, the listing's version, stays.
   */
  async recordOwnership(id: string, websiteUrl: string, method: 'dns' | 'file', manager?: EntityManager): Promise<ListingRecord | null> {
    const [rows] = (await this.db(manager).query(
      `UPDATE listings SET ownership_verified_url = $2, ownership_verified_at = now(), ownership_method = $3
       WHERE id = $1 AND website_url = $2 RETURNING ${LISTING_COLUMNS}`,
      [id, websiteUrl, method],
    )) as [ListingRecord[], number];
    return rows[0] ?? null;
  }

  /** A seller's listings in every status, newest first. */
  listBySeller(sellerId: string): Promise<ListingRecord[]> {
    return this.dataSource.query(`SELECT ${LISTING_COLUMNS} FROM listings WHERE seller_id = $1 ORDER BY created_at DESC, id DESC`, [sellerId]);
  }

  /** Every listing, newest first (the admin Listings tab). */
  listAll(limit: number): Promise<ListingRecord[]> {
    return this.dataSource.query(`SELECT ${LISTING_COLUMNS} FROM listings ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]);
  }

  /** Takes a deleted seller's unsold listings off the market (D17); returns them as they are now. */
  withdrawBySeller(sellerId: string, manager: EntityManager): Promise<ListingRecord[]> {
    return this.update(manager, `status = 'draft', featured = false`, `seller_id = $1 AND status IN ('pending', 'active', 'paused')`, [sellerId]);
  }

  private db(manager?: EntityManager) {
    return manager ?? this.dataSource.manager;
  }

  /** UPDATE ... RETURNING the rows as they now are (PostgreSQL answers an UPDATE with [rows, count]). */
  private async update(manager: EntityManager, set: string, where: string, params: unknown[]): Promise<ListingRecord[]> {
    const [rows] = (await manager.query(`UPDATE listings SET ${set}, updated_at = now() WHERE ${where} RETURNING ${LISTING_COLUMNS}`, params)) as [
      ListingRecord[],
      number,
    ];
    return rows;
  }

  /** Updates one listing by id (params[0]) and returns it. */
  private async updateOne(manager: EntityManager, set: string, params: unknown[]): Promise<ListingRecord> {
    const [row] = await this.update(manager, set, 'id = $1', params);
    return row;
  }

  /** Makes a listing live (D16): active, approved now, ending duration_days from now. */
  async approve(id: string, now: Date = new Date(), manager?: EntityManager): Promise<ListingRecord | null> {
    const [row] = await this.update(
      this.db(manager),
      `status = 'active', approved_at = $2::timestamptz, expires_at = $2::timestamptz + make_interval(days => duration_days)`,
      `id = $1 AND status <> 'active'`,
      [id, now],
    );
    return row ?? null;
  }

  /** One page of active listings matching the browse filters, and the counts per category and type (two queries at once). */
  async browse(query: BrowseListingsQuery): Promise<{ listings: ListingRecord[]; grid: GridCell[] }> {
    const page = buildBrowseQuery(query, LISTING_COLUMNS);
    const counts = buildBrowseGrid(query);
    const [listings, grid] = await Promise.all([
      this.dataSource.query(page.sql, page.params) as Promise<ListingRecord[]>,
      this.dataSource.query(counts.sql, counts.params) as Promise<GridCell[]>,
    ]);
    return { listings, grid };
  }

  /**
   * Active listings' cards by id, in the order given: a browse page the index chose (ADR 0081, 0082). A named prepared
   * statement on TypeORM's pool: PostgreSQL parses and plans it once per connection, not once per page (ADR 0057).
   */
  async activeCardsByIds(ids: string[]): Promise<CardRecord[]> {
    if (ids.length === 0) return [];
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const { rows } = await pool.query<CardRecord>({ ...ACTIVE_CARDS_BY_IDS, values: [ids] });
    // Checked here, not in SQL: a status there makes the planner weigh every partial index, half the statement's cost.
    const byId = new Map(rows.filter((row) => row.status === 'active').map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
