import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { appendEvent } from '@market/server-kit';
import type { Role } from '@market/contracts';
import { UserEntity } from './user.entity';

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  role: Role;
  ageConfirmedAt: Date | null;
  emailVerifiedAt?: Date | null;
}

/** The only place that reads and writes auth.users. */
@Injectable()
export class UsersRepository {
  private readonly users: Repository<UserEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** Finds a user by username or email, case-insensitively. */
  findByLogin(login: string): Promise<UserEntity | null> {
    return this.users
      .createQueryBuilder('u')
      .where('lower(u.username) = lower(:login) OR lower(u.email) = lower(:login)', { login })
      .getOne();
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  async usernameTaken(username: string): Promise<boolean> {
    return this.users.createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getExists();
  }

  /** Inserts a registered user and its user.registered event in one transaction. */
  createRegistered(input: NewUser): Promise<UserEntity> {
    return this.dataSource.transaction(async (manager) => {
      const user = await manager.save(UserEntity, manager.create(UserEntity, { id: randomUUID(), ...input }));
      await appendEvent(manager, 'user.registered', {
        user_id: user.id,
        username: user.username,
        email: user.email,
        created_at: user.createdAt.toISOString(),
      });
      return user;
    });
  }

  /** Inserts a user without an event (the configured admin account). */
  create(input: NewUser): Promise<UserEntity> {
    return this.users.save(this.users.create({ id: randomUUID(), ...input }));
  }

  async update(id: string, changes: Partial<Pick<UserEntity, 'passwordHash' | 'role' | 'status'>>): Promise<void> {
    await this.users.update({ id }, changes);
  }
}
