import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reviews of completed sales (D23, ADR 0083): completed_sales keeps each sale whose money reached the seller
 * (sale.completed), which says who may review whom and until when, and counts a seller's sales; sale_reviews keeps at
 * most one review per side of a sale, its seller's one reply, and an admin's hiding.
 */
export class SaleReviews1765300000000 implements MigrationInterface {
  name = 'SaleReviews1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE completed_sales (
        invoice_id uuid PRIMARY KEY,
        invoice_number text NOT NULL,
        listing_id uuid NOT NULL,
        buyer_id uuid NOT NULL,
        seller_id uuid NOT NULL,
        website_title text NOT NULL,
        completed_at timestamptz NOT NULL,
        reviews_close_at timestamptz NOT NULL,
        CHECK (buyer_id <> seller_id)
      )`);
    await queryRunner.query('CREATE INDEX completed_sales_seller_idx ON completed_sales (seller_id)');
    await queryRunner.query('CREATE INDEX completed_sales_buyer_idx ON completed_sales (buyer_id)');
    await queryRunner.query(`
      CREATE TABLE sale_reviews (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        invoice_id uuid NOT NULL REFERENCES completed_sales (invoice_id),
        author_id uuid NOT NULL,
        subject_id uuid NOT NULL,
        author_role text NOT NULL CHECK (author_role IN ('buyer', 'seller')),
        stars smallint NOT NULL CHECK (stars BETWEEN 1 AND 5),
        body text NOT NULL CHECK (char_length(body) BETWEEN 10 AND 4000),
        reply text CHECK (reply IS NULL OR char_length(reply) BETWEEN 1 AND 4000),
        replied_at timestamptz,
        hidden_at timestamptz,
        hidden_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (invoice_id, author_role)
      )`);
    // A seller page's reviews and the rating: buyers' reviews of one seller, newest first.
    await queryRunner.query(`CREATE INDEX sale_reviews_seller_idx ON sale_reviews (subject_id, created_at DESC, id DESC) WHERE author_role = 'buyer'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sale_reviews');
    await queryRunner.query('DROP TABLE completed_sales');
  }
}
