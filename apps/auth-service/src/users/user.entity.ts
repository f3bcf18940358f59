import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Role, UserStatus } from '@market/contracts';

export type AccountStatus = UserStatus | 'deleted';

@Entity('users')
export class UserEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  username!: string;

  @Column('text')
  email!: string;

  @Column('text', { name: 'password_hash' })
  passwordHash!: string;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('text', { nullable: true })
  bio!: string | null;

  @Column('text', { nullable: true })
  website!: string | null;

  @Column('text', { nullable: true })
  phone!: string | null;

  @Column('text', { nullable: true })
  location!: string | null;

  @Column('text', { default: 'regular' })
  role!: Role;

  @Column('boolean', { default: false })
  verified!: boolean;

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt!: Date | null;

  @Column('text', { default: 'active' })
  status!: AccountStatus;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;

  @Column('integer', { name: 'token_version', default: 0 })
  tokenVersion!: number;

  @Column('timestamptz', { name: 'age_confirmed_at', nullable: true })
  ageConfirmedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
