import { z } from 'zod';
import type { UserDto } from '../auth/user.dto';

/** GET /api/admin/users?limit= */
export const AdminUsersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuerySchema>;

/** PATCH /api/admin/users/{id}: exactly one of verified or status. */
export const AdminUpdateUserRequestSchema = z
  .object({ verified: z.boolean().optional(), status: z.enum(['active', 'suspended']).optional() })
  .strict()
  .refine((body) => (body.verified === undefined) !== (body.status === undefined), {
    message: 'Send exactly one of verified or status',
  });
export type AdminUpdateUserRequest = z.infer<typeof AdminUpdateUserRequestSchema>;

/** A user row in the admin Users tab (SPEC §2), with listing counts from the listings service. */
export interface AdminUserDto extends UserDto {
  listingCount: number;
  activeListings: number;
  soldListings: number;
}

export interface AdminUsersResponse {
  users: AdminUserDto[];
  total: number;
}

export interface ImpersonationResponse {
  impersonation_token: string;
  target_user: UserDto;
  original_admin: UserDto;
}

export interface AdminStats {
  total_users: number;
  total_listings: number;
  active_listings: number;
  total_transactions: number;
}

export interface AuditEntry {
  id: string;
  admin_id: string;
  target_id: string;
  action: string;
  method: string;
  route: string;
  at: string;
}

export interface EmailLogEntry {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  transport: 'smtp' | 'log';
  sent_at: string;
}

/** Listing counts per seller, from the listings service. */
export interface SellerListingCounts {
  [userId: string]: { listingCount: number; activeListings: number; soldListings: number };
}
