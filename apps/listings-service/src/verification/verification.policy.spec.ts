import type { Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import type { ListingRecord } from '../listings/listings.repository';
import { authorizeConnect, authorizeConnectionsRead } from './verification.policy';

const SELLER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const ADMIN = '00000000-0000-4000-8000-000000000003';

const actor = (user_id: string, role: 'user' | 'admin' = 'user', impersonator_id: string | null = null) => ({ user_id, role, impersonator_id }) as unknown as Actor;
const listing = (status: string) => ({ id: 'l', seller_id: SELLER, status }) as unknown as ListingRecord;

function codeOf(run: () => unknown): string {
  try {
    run();
    return 'allowed';
  } catch (error) {
    return (error as AppError).code;
  }
}

describe('verified figures policy (ADR 0084)', () => {
  const cases: [string, Actor, string, string, string][] = [
    // who, actor, listing status, read connections, connect
    ['the seller', actor(SELLER), 'active', 'allowed', 'allowed'],
    ['the seller of a draft', actor(SELLER), 'draft', 'allowed', 'allowed'],
    ['another member, live listing', actor(OTHER), 'active', 'not_found', 'forbidden'],
    ['another member, draft', actor(OTHER), 'draft', 'not_found', 'not_found'],
    ['a real admin', actor(ADMIN, 'admin'), 'active', 'allowed', 'forbidden'],
    ['an admin acting as the seller', actor(SELLER, 'user', ADMIN), 'active', 'allowed', 'forbidden'],
  ];

  it.each(cases)('%s', (_who, who, status, read, connect) => {
    expect(codeOf(() => authorizeConnectionsRead(who, listing(status)))).toBe(read);
    expect(codeOf(() => authorizeConnect(who, listing(status)))).toBe(connect);
  });

  it('answers a missing listing as not found to everyone', () => {
    expect(codeOf(() => authorizeConnectionsRead(actor(SELLER), null))).toBe('not_found');
    expect(codeOf(() => authorizeConnect(actor(ADMIN, 'admin'), null))).toBe('not_found');
  });
});
