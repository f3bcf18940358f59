import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { BrowseListingsQuery, CreateListing } from '@market/contracts';
import type { ListingStatus } from '@market/domain';

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
  price: number;
  duration_days: number;
  approved_at: Date | null;
  expires_at: Date | null;
  key_metrics: string | null;
  growth_opportunities: string | null;
  included_assets: string | null;
  reason_for_selling: string | null;
  screenshots: string[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, seller_id, title, description, category, listing_type, auction_type, status, featured, website_url,
  monthly_revenue::float8 AS monthly_revenue, annual_revenue::float8 AS annual_revenue, monthly_traffic::float8 AS monthly_traffic,
  monthly_expenses::float8 AS monthly_expenses, profit_margin::float8 AS profit_margin, business_age_months, monetization_methods,
  starting_price::float8 AS starting_price, reserve_price::float8 AS reserve_price, buy_now_price::float8 AS buy_now_price,
  current_bid::float8 AS current_bid, bid_count, price::float8 AS price, duration_days, approved_at, expires_at, key_metrics,
  growth_opportunities, included_assets, reason_for_selling, screenshots, created_at, updated_at`;

const ORDER: Record<BrowseListingsQuery['sort_by'], string> = {
  created_at: 'created_at',
  price: 'price',
  monthly_revenue: 'monthly_revenue',
};

/** The only place that reads and writes listings.listings. */
@Injectable()
export class ListingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts a listing for a seller in the given status. */
  async insert(sellerId: string, listing: CreateListing, status: ListingStatus, screenshots: string[] = []): Promise<ListingRecord> {
    const id = randomUUID();
    await this.dataSource.query(
      `INSERT INTO listings (id, seller_id, title, description, category, listing_type, auction_type, status, website_url,
        monthly_revenue, annual_revenue, monthly_traffic, monthly_expenses, profit_margin, business_age_months, monetization_methods,
        starting_price, reserve_price, buy_now_price, duration_days, key_metrics, growth_opportunities, included_assets,
        reason_for_selling, screenshots)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)`,
      [
        id, sellerId, listing.title, listing.description, listing.category, listing.listing_type, listing.auction_type, status,
        listing.website_url, listing.monthly_revenue, listing.annual_revenue, listing.monthly_traffic, listing.monthly_expenses,
        listing.profit_margin, listing.business_age_months, listing.monetization_methods, listing.starting_price,
        listing.reserve_price ?? null, listing.buy_now_price ?? null, listing.duration_days, listing.key_metrics ?? null,
        listing.growth_opportunities ?? null, listing.included_assets ?? null, listing.reason_for_selling ?? null, screenshots,
      ],
    );
    return (await this.findById(id)) as ListingRecord;
  }

  async findById(id: string): Promise<ListingRecord | null> {
    const rows: ListingRecord[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM listings WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Makes a listing live (D16): active, approved now, ending duration_days from now. */
  async approve(id: string, now: Date = new Date()): Promise<ListingRecord | null> {
    const [rows] = (await this.dataSource.query(
      `UPDATE listings SET status = 'active', approved_at = $2::timestamptz,
         expires_at = $2::timestamptz + make_interval(days => duration_days), updated_at = now()
       WHERE id = $1 AND status IN ('pending', 'draft') RETURNING id`,
      [id, now],
    )) as [Array<{ id: string }>, number];
    return rows.length ? this.findById(id) : null;
  }

  /** One page of active listings matching the browse filters, and how many match in all. */
  async browse(query: BrowseListingsQuery): Promise<{ listings: ListingRecord[]; total: number }> {
    const where = [`status = 'active'`];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (query.search) add(`search @@ websearch_to_tsquery('english', ?)`, query.search);
    if (query.category) add('category = ?', query.category);
    if (query.listing_type !== 'all') add('listing_type = ?', query.listing_type);
    if (query.featured !== undefined) add('featured = ?', query.featured);
    if (query.min_price !== undefined) add('price >= ?', query.min_price);
    if (query.max_price !== undefined) add('price <= ?', query.max_price);
    if (query.min_revenue !== undefined) add('monthly_revenue >= ?', query.min_revenue);
    if (query.max_revenue !== undefined) add('monthly_revenue <= ?', query.max_revenue);
    const direction = query.sort_order === 'asc' ? 'ASC' : 'DESC';
    params.push(query.limit, (query.page - 1) * query.limit);
    const rows: Array<ListingRecord & { total: string }> = await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM listings WHERE ${where.join(' AND ')}
       ORDER BY ${ORDER[query.sort_by]} ${direction}, id ${direction} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const total = rows.length ? Number(rows[0].total) : await this.count(where.join(' AND '), params.slice(0, -2));
    return { listings: rows.map(({ total: _total, ...listing }) => listing), total };
  }

  /** All listings and active ones, for the admin overview. */
  async stats(): Promise<{ total_listings: number; active_listings: number }> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS total_listings, (count(*) FILTER (WHERE status = 'active'))::int AS active_listings FROM listings`,
    );
    return row;
  }

  /** Listing counts per seller (all, active, sold) for the admin Users tab. */
  async sellerCounts(sellerIds: string[]): Promise<Array<{ seller_id: string; listing_count: number; active: number; sold: number }>> {
    return this.dataSource.query(
      `SELECT seller_id, count(*)::int AS listing_count, (count(*) FILTER (WHERE status = 'active'))::int AS active,
              (count(*) FILTER (WHERE status = 'sold'))::int AS sold
       FROM listings WHERE seller_id = ANY($1::uuid[]) GROUP BY seller_id`,
      [sellerIds],
    );
  }

  private async count(where: string, params: unknown[]): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM listings WHERE ${where}`, params);
    return row.n;
  }
}
