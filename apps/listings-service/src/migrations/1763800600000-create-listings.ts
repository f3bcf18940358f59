import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Listings, with a stored full-text document and partial indexes for every browse filter and sort (ADR 0014). */
export class CreateListings1763800600000 implements MigrationInterface {
  name = 'CreateListings1763800600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE listings (
        id uuid PRIMARY KEY,
        seller_id uuid NOT NULL,
        title text NOT NULL,
        description text NOT NULL,
        category text NOT NULL,
        listing_type text NOT NULL CHECK (listing_type IN ('auction', 'fixed')),
        auction_type text NOT NULL DEFAULT 'auto' CHECK (auction_type IN ('auto', 'manual')),
        status text NOT NULL CHECK (status IN ('pending', 'active', 'paused', 'draft', 'sold', 'expired')),
        featured boolean NOT NULL DEFAULT false,
        website_url text NOT NULL,
        monthly_revenue bigint NOT NULL CHECK (monthly_revenue >= 0),
        annual_revenue bigint NOT NULL CHECK (annual_revenue >= 0),
        monthly_traffic bigint NOT NULL CHECK (monthly_traffic >= 0),
        monthly_expenses bigint NOT NULL DEFAULT 0 CHECK (monthly_expenses >= 0),
        profit_margin numeric(4, 1) NOT NULL,
        business_age_months integer NOT NULL CHECK (business_age_months >= 0),
        monetization_methods text[] NOT NULL DEFAULT '{}',
        starting_price bigint NOT NULL CHECK (starting_price > 0),
        reserve_price bigint,
        buy_now_price bigint,
        current_bid bigint,
        bid_count integer NOT NULL DEFAULT 0,
        price bigint GENERATED ALWAYS AS (COALESCE(current_bid, starting_price)) STORED,
        duration_days integer NOT NULL,
        approved_at timestamptz,
        expires_at timestamptz,
        key_metrics text,
        growth_opportunities text,
        included_assets text,
        reason_for_selling text,
        screenshots text[] NOT NULL DEFAULT '{}',
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')
        ) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX listings_search_idx ON listings USING gin (search)');
    // Browse only ever shows active listings: partial indexes keep every sort an index scan.
    await queryRunner.query(`CREATE INDEX listings_active_newest_idx ON listings (created_at DESC, id) WHERE status = 'active'`);
    await queryRunner.query(`CREATE INDEX listings_active_price_idx ON listings (price, id) WHERE status = 'active'`);
    await queryRunner.query(`CREATE INDEX listings_active_revenue_idx ON listings (monthly_revenue DESC, id) WHERE status = 'active'`);
    await queryRunner.query(`CREATE INDEX listings_active_category_idx ON listings (category, created_at DESC) WHERE status = 'active'`);
    await queryRunner.query(`CREATE INDEX listings_active_featured_idx ON listings (created_at DESC) WHERE status = 'active' AND featured`);
    await queryRunner.query('CREATE INDEX listings_seller_idx ON listings (seller_id, created_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE listings');
  }
}
