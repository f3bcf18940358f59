import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { VerificationSource } from '@market/contracts';

/** One source's connection of a listing, as stored: the credential stays sealed (CredentialSeal). */
export interface ConnectionRow {
  listing_id: string;
  source: VerificationSource;
  seller_id: string;
  credential: Buffer;
  property_id: string | null;
  account_label: string | null;
  test_mode: boolean;
  state: 'active' | 'failing' | 'revoked';
  connected_at: Date;
  last_attempt_at: Date | null;
  last_error: string | null;
}

/** A month of a snapshot: revenue in cents (`value`), or traffic as sessions (`value`) and users. */
export interface SnapshotMonth {
  month: string;
  value: number;
  users?: number;
}

/** One dated snapshot of a source's monthly figures (ADR 0084). */
export interface SnapshotRow {
  listing_id: string;
  source: VerificationSource;
  taken_at: Date;
  test_mode: boolean;
  months: SnapshotMonth[];
  monthly_average: number | null;
  monthly_average_users: number | null;
  other_currency_charges: number;
}

/** What a new snapshot holds. */
export type NewSnapshot = Omit<SnapshotRow, 'taken_at'>;

/** A connection the refresh keeps up: `unread` when no snapshot was taken since it was (last) connected. */
export interface RefreshableRow {
  listing_id: string;
  source: VerificationSource;
  connected_at: Date;
  unread: boolean;
}

/** A GA4 consent's state as issued: single use, for one seller, listing and property. */
export interface ConsentStateRow {
  listing_id: string;
  seller_id: string;
  property_id: string;
}

const FLAG = { stripe: 'revenue_verified', ga4: 'traffic_verified' } as const;

const SNAPSHOT_COLUMNS = `listing_id, source, taken_at, test_mode, months, monthly_average::float8 AS monthly_average,
  monthly_average_users::float8 AS monthly_average_users, other_currency_charges`;

/** Reads and writes listing_verifications, verification_snapshots and verification_states (ADR 0084); the service decides. */
@Injectable()
export class VerificationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** One connection, locked for the refresh that holds it when `manager` is given. */
  async connection(listingId: string, source: VerificationSource, manager?: EntityManager): Promise<ConnectionRow | null> {
    const rows: ConnectionRow[] = await (manager ?? this.dataSource).query(
      `SELECT * FROM listing_verifications WHERE listing_id = $1 AND source = $2${manager ? ' FOR UPDATE' : ''}`,
      [listingId, source],
    );
    return rows[0] ?? null;
  }

  /** Connects (or connects again) a source: a new credential replaces the old, and its state starts active. When it was connected. */
  async saveConnection(row: Pick<ConnectionRow, 'listing_id' | 'source' | 'seller_id' | 'credential' | 'property_id' | 'account_label' | 'test_mode'>, manager: EntityManager): Promise<Date> {
    const [saved]: { connected_at: Date }[] = await manager.query(
      `INSERT INTO listing_verifications (listing_id, source, seller_id, credential, property_id, account_label, test_mode, state, last_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', now())
       ON CONFLICT (listing_id, source) DO UPDATE SET seller_id = $3, credential = $4, property_id = $5, account_label = $6, test_mode = $7,
         state = 'active', connected_at = now(), last_attempt_at = now(), last_error = NULL
       RETURNING connected_at`,
      [row.listing_id, row.source, row.seller_id, row.credential, row.property_id, row.account_label, row.test_mode],
    );
    // A new account or property: the figures of the one it replaces are not this one's.
    await manager.query(`DELETE FROM verification_snapshots WHERE listing_id = $1 AND source = $2`, [row.listing_id, row.source]);
    return saved.connected_at;
  }

  /** Records a refresh that worked: the state, the account's label and, when given, the credential sealed again. */
  async recordSuccess(listingId: string, source: VerificationSource, accountLabel: string | null, credential: Buffer | null, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE listing_verifications SET state = 'active', last_attempt_at = now(), last_error = NULL,
         account_label = COALESCE($3, account_label), credential = COALESCE($4, credential)
       WHERE listing_id = $1 AND source = $2`,
      [listingId, source, accountLabel, credential],
    );
  }

  /**
   * Records a refresh that failed: failing (the provider was slow or wrong) or revoked (it refused the credential). Only
   * while `credential` is still the stored one (false otherwise): a seller who connected again meanwhile is not marked
   * by the old read. The listing's flags follow in the same transaction.
   */
  async recordFailure(listingId: string, source: VerificationSource, credential: Buffer, state: 'failing' | 'revoked', error: string, currentSince: Date, testMode: boolean): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE listing_verifications SET state = $3, last_attempt_at = now(), last_error = $4
         WHERE listing_id = $1 AND source = $2 AND credential = $5 AND state <> 'revoked' RETURNING listing_id`,
        [listingId, source, state, error.slice(0, 500), credential],
      )) as [unknown[], number];
      if (rows.length === 0) return false;
      await this.syncFlags([listingId], currentSince, testMode, manager);
      return true;
    });
  }

  /** The listing's status, null when it is gone: only live (active) listings are refreshed (D24). */
  async statusOf(listingId: string): Promise<string | null> {
    const rows: { status: string }[] = await this.dataSource.query(`SELECT status FROM listings WHERE id = $1`, [listingId]);
    return rows[0]?.status ?? null;
  }

  /** Deletes a source's connection and every snapshot taken from it. */
  async deleteConnection(listingId: string, source: VerificationSource, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM listing_verifications WHERE listing_id = $1 AND source = $2`, [listingId, source]);
    await manager.query(`DELETE FROM verification_snapshots WHERE listing_id = $1 AND source = $2`, [listingId, source]);
  }

  /** Deletes a deleted account's connections and their figures, and turns their listings' flags off (ADR 0084). */
  async removeSeller(sellerId: string, manager: EntityManager): Promise<void> {
    const [gone] = (await manager.query(`DELETE FROM listing_verifications WHERE seller_id = $1 RETURNING listing_id, source`, [sellerId])) as [
      { listing_id: string; source: VerificationSource }[],
      number,
    ];
    for (const { listing_id, source } of gone) {
      await manager.query(`DELETE FROM verification_snapshots WHERE listing_id = $1 AND source = $2`, [listing_id, source]);
      await manager.query(`UPDATE listings SET ${FLAG[source]} = false WHERE id = $1 AND ${FLAG[source]}`, [listing_id]);
    }
    await manager.query(`DELETE FROM verification_states WHERE seller_id = $1`, [sellerId]);
  }

  /** Keeps a snapshot. */
  async insertSnapshot(snapshot: NewSnapshot, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO verification_snapshots (listing_id, source, test_mode, months, monthly_average, monthly_average_users, other_currency_charges)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)`,
      [snapshot.listing_id, snapshot.source, snapshot.test_mode, JSON.stringify(snapshot.months), snapshot.monthly_average, snapshot.monthly_average_users, snapshot.other_currency_charges],
    );
  }

  /** The newest snapshot of each source of each listing. */
  async latestSnapshots(listingIds: readonly string[]): Promise<SnapshotRow[]> {
    if (listingIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT DISTINCT ON (listing_id, source) ${SNAPSHOT_COLUMNS} FROM verification_snapshots
       WHERE listing_id = ANY($1::uuid[]) ORDER BY listing_id, source, taken_at DESC`,
      [listingIds],
    );
  }

  /** Every connection of the listings among `listingIds`. */
  async connectionsOf(listingIds: readonly string[]): Promise<ConnectionRow[]> {
    if (listingIds.length === 0) return [];
    return this.dataSource.query(`SELECT * FROM listing_verifications WHERE listing_id = ANY($1::uuid[])`, [listingIds]);
  }

  /**
   * Sets the listings' card flags (revenue_verified, traffic_verified: the badge and the browse filter) from their
   * sources (ADR 0084): a connection the provider has not refused, a newest snapshot taken since `currentSince`, not
   * TEST MODE unless `testMode`, and a claim that holds against it: the SQL form of the domain's isClaimInflated
   * (claimed * 100 <= verified * 115, revenue compared in cents). Only changed rows are written, so the browse feed sees
   * only real changes. Answers the listings whose flags changed, with their new values.
   */
  async syncFlags(
    listingIds: readonly string[],
    currentSince: Date,
    testMode: boolean,
    manager?: EntityManager,
  ): Promise<Map<string, { revenue_verified: boolean; traffic_verified: boolean }>> {
    if (listingIds.length === 0) return new Map();
    const holds = (source: VerificationSource, claim: string) => `EXISTS (
        SELECT 1 FROM latest x JOIN listing_verifications v ON v.listing_id = x.listing_id AND v.source = x.source
        WHERE x.listing_id = l.id AND x.source = '${source}' AND v.state <> 'revoked' AND x.taken_at >= $2 AND ($3 OR NOT x.test_mode)
          AND ${claim} * 100 <= COALESCE(x.monthly_average, 0)::numeric * 115)`;
    const [rows] = (await (manager ?? this.dataSource).query(
      `WITH latest AS (
         SELECT DISTINCT ON (s.listing_id, s.source) s.listing_id, s.source, s.taken_at, s.test_mode, s.monthly_average
         FROM verification_snapshots s WHERE s.listing_id = ANY($1::uuid[]) ORDER BY s.listing_id, s.source, s.taken_at DESC
       ), holds AS (
         SELECT l.id, ${holds('stripe', 'l.monthly_revenue::numeric * 100')} AS revenue, ${holds('ga4', 'l.monthly_traffic::numeric')} AS traffic
         FROM listings l WHERE l.id = ANY($1::uuid[])
       )
       UPDATE listings l SET revenue_verified = h.revenue, traffic_verified = h.traffic FROM holds h
       WHERE l.id = h.id AND (l.revenue_verified, l.traffic_verified) IS DISTINCT FROM (h.revenue, h.traffic)
       RETURNING l.id, l.revenue_verified, l.traffic_verified`,
      [listingIds, currentSince, testMode],
    )) as [{ id: string; revenue_verified: boolean; traffic_verified: boolean }[], number];
    return new Map(rows.map((row) => [row.id, { revenue_verified: row.revenue_verified, traffic_verified: row.traffic_verified }]));
  }

  /** The listings whose card shows a verified figure, after `after` (by id): what the sweep checks again. */
  async flaggedListings(after: string | null, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM listings WHERE (revenue_verified OR traffic_verified) AND ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Connections whose credential is sealed under another key than `currentKeyId` (a bus key rotation): to seal again. */
  async sealedUnder(notKeyId: Buffer, after: string | null, limit: number): Promise<ConnectionRow[]> {
    return this.dataSource.query(
      `SELECT * FROM listing_verifications WHERE octet_length(credential) > 0 AND substring(credential from 2 for ${notKeyId.length}) <> $1
         AND ($2::text IS NULL OR (listing_id::text || source) > $2) ORDER BY listing_id::text || source LIMIT $3`,
      [notKeyId, after, limit],
    );
  }

  /** Replaces a credential with the same secret sealed again, unless it changed meanwhile. */
  async reseal(listingId: string, source: VerificationSource, before: Buffer, after: Buffer): Promise<void> {
    await this.dataSource.query(`UPDATE listing_verifications SET credential = $4 WHERE listing_id = $1 AND source = $2 AND credential = $3`, [listingId, source, before, after]);
  }

  /** The connections that refresh daily: their listing is live and their credential not refused. */
  async refreshable(after: string | null, limit: number): Promise<RefreshableRow[]> {
    return this.dataSource.query(
      `SELECT v.listing_id, v.source, v.connected_at,
         NOT EXISTS (SELECT 1 FROM verification_snapshots s WHERE s.listing_id = v.listing_id AND s.source = v.source AND s.taken_at >= v.connected_at) AS unread
       FROM listing_verifications v JOIN listings l ON l.id = v.listing_id
       WHERE l.status = 'active' AND v.state <> 'revoked' AND ($1::text IS NULL OR (v.listing_id::text || v.source) > $1)
       ORDER BY v.listing_id::text || v.source LIMIT $2`,
      [after, limit],
    );
  }

  /**
   * Wipes the credentials of connections whose listing was sold or cancelled (of `listingId`, or of every listing),
   * whenever that happened (ADR 0084): the site's accounts are the buyer's now, and the connection shows as no longer
   * connected while its figures stay as last verified. The listings whose connections it ended.
   */
  async retireEnded(listingId: string | null = null, manager?: EntityManager): Promise<string[]> {
    const [rows] = (await (manager ?? this.dataSource).query(
      `UPDATE listing_verifications v SET credential = '\\x'::bytea, state = 'revoked', last_attempt_at = now(),
         last_error = 'The listing ended: its key or token was deleted.'
       FROM listings l WHERE l.id = v.listing_id AND l.status IN ('sold', 'cancelled') AND octet_length(v.credential) > 0
         AND ($1::uuid IS NULL OR v.listing_id = $1)
       RETURNING v.listing_id`,
      [listingId],
    )) as [{ listing_id: string }[], number];
    return [...new Set(rows.map((row) => row.listing_id))];
  }

  /** Keeps a GA4 consent's state until `expiresAt`. */
  async issueState(state: string, row: ConsentStateRow, expiresAt: Date): Promise<void> {
    // One consent under way per seller and listing: a new one replaces it, so no one grows the table by asking again.
    await this.dataSource.query(`DELETE FROM verification_states WHERE expires_at < now() OR (seller_id = $1 AND listing_id = $2)`, [row.seller_id, row.listing_id]);
    await this.dataSource.query(
      `INSERT INTO verification_states (state, listing_id, seller_id, property_id, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [state, row.listing_id, row.seller_id, row.property_id, expiresAt],
    );
  }

  /** Uses a state up: the consent it was issued for, when it is unexpired and `sellerId`'s; null otherwise (and then it is left alone). */
  async takeState(state: string, sellerId: string): Promise<ConsentStateRow | null> {
    const [rows] = (await this.dataSource.query(
      `DELETE FROM verification_states WHERE state = $1 AND seller_id = $2 AND expires_at > now() RETURNING listing_id, seller_id, property_id`,
      [state, sellerId],
    )) as [ConsentStateRow[], number];
    return rows[0] ?? null;
  }
}
