import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '@market/contracts';
import { UserEntity } from './user.entity';

/** What auth.me reads: the user as the API presents them, and what their token is checked against. */
export type UserProfile = Pick<
  UserEntity,
  'id' | 'username' | 'name' | 'email' | 'role' | 'bio' | 'website' | 'phone' | 'location' | 'verified' | 'emailVerifiedAt' | 'status' | 'tokenVersion' | 'createdAt'
>;

interface ProfileRow {
  id: string;
  username: string;
  name: string | null;
  email: string;
  role: UserEntity['role'];
  bio: string | null;
  website: string | null;
  phone: string | null;
  location: string | null;
  verified: boolean;
  email_verified_at: Date | null;
  status: UserEntity['status'];
  token_version: number;
  created_at: Date;
}

const PROFILE_STATEMENT = {
  name: 'auth-user-profile',
  text: 'SELECT id, username, name, email, role, bio, website, phone, location, verified, email_verified_at, status, token_version, created_at FROM users WHERE id = $1',
};

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  role: Role;
  ageConfirmedAt: Date | null;
  emailVerifiedAt?: Date | null;
}

export type UserChanges = Partial<
  Pick<
    UserEntity,
    'passwordHash' | 'role' | 'status' | 'verified' | 'name' | 'email' | 'bio' | 'website' | 'phone' | 'location' | 'emailVerifiedAt' | 'username' | 'deletedAt'
  >
>;

/** The only place that reads and writes auth.users. Methods take the caller's transaction when they run inside one. */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(UserEntity);
  }

  /** Runs fn in one transaction. */
  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  findById(id: string, manager?: EntityManager): Promise<UserEntity | null> {
    // findOneBy({ id: undefined }) would match any row: refuse instead of guessing.
    if (typeof id !== 'string' || id.length === 0) throw new Error('findById needs an id');
    return this.repo(manager).findOneBy({ id });
  }

  /**
   * The user every page of a signed-in member asks for (auth.me), read with a named prepared statement on the pool
   * TypeORM holds (the same connections and limits): PostgreSQL parses and plans it once per connection, and no query
   * is built per request, which on this hot read cost more than the read itself (ADR 0057).
   */
  async findProfile(id: string): Promise<UserProfile | null> {
    if (typeof id !== 'string' || id.length === 0) throw new Error('findProfile needs an id');
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const { rows } = await pool.query<ProfileRow>({ ...PROFILE_STATEMENT, values: [id] });
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      email: row.email,
      role: row.role,
      bio: row.bio,
      website: row.website,
      phone: row.phone,
      location: row.location,
      verified: row.verified,
      emailVerifiedAt: row.email_verified_at,
      status: row.status,
      tokenVersion: row.token_version,
      createdAt: row.created_at,
    };
  }

  /** A user locked for a change inside the caller's transaction. */
  findForUpdate(id: string, manager: EntityManager): Promise<UserEntity | null> {
    return this.repo(manager).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Finds a live user by username or email, case-insensitively. */
  findByLogin(login: string): Promise<UserEntity | null> {
    return this.repo()
      .createQueryBuilder('u')
      .where('(lower(u.username) = lower(:login) OR lower(u.email) = lower(:login))', { login })
      .andWhere("u.status <> 'deleted'")
      .getOne();
  }

  /** An active account by username, case-insensitively; suspended and deleted ones are not found (a seller page, ADR 0083). */
  findActiveByUsername(username: string): Promise<UserEntity | null> {
    return this.repo().createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).andWhere("u.status = 'active'").getOne();
  }

  findByEmail(email: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.repo(manager).createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).andWhere("u.status <> 'deleted'").getOne();
  }

  usernameTaken(username: string): Promise<boolean> {
    return this.repo().createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getExists();
  }

  /** Inserts a user. */
  insert(input: NewUser, manager?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(manager);
    return repo.save(repo.create({ id: randomUUID(), ...input }));
  }

  /** Applies changes and returns the user as stored. */
  async update(id: string, changes: UserChanges, manager?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(manager);
    await repo.update({ id }, changes);
    return repo.findOneByOrFail({ id });
  }

  /** The database's clock now (not the transaction's start): orders changes made one after another under a row lock. */
  async clock(manager: EntityManager): Promise<Date> {
    const [row]: { at: Date }[] = await manager.query('SELECT clock_timestamp() AS at');
    return row.at;
  }

  /** Bumps the token version (every earlier token stops working) with other changes, atomically. */
  async endSessions(id: string, changes: UserChanges, manager?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(manager);
    // The version bump ends every token; the rows say so too (the owner's list), with the impersonations they started.
    await (manager ?? this.dataSource.manager).query(
      'UPDATE sessions SET revoked_at = now() WHERE (user_id = $1 OR impersonator_id = $1) AND revoked_at IS NULL',
      [id],
    );
    await repo
      .createQueryBuilder()
      .update(UserEntity)
      .set({ ...changes, tokenVersion: () => 'token_version + 1' })
      .where('id = :id', { id })
      .execute();
    return repo.findOneByOrFail({ id });
  }

  /** Live users, newest first, and how many there are in all. */
  async list(limit: number): Promise<{ users: UserEntity[]; total: number }> {
    const [users, total] = await this.repo().findAndCount({
      where: [{ status: 'active' }, { status: 'suspended' }],
      order: { createdAt: 'DESC' },
      take: limit,
    });
    return { users, total };
  }

  countLive(): Promise<number> {
    return this.repo().count({ where: [{ status: 'active' }, { status: 'suspended' }] });
  }

  /** Users by id (deleted ones included: their scrubbed names are what history shows). */
  findByIds(ids: string[]): Promise<UserEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.repo().createQueryBuilder('u').where('u.id IN (:...ids)', { ids }).getMany();
  }
}
