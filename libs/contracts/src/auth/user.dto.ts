import type { Role } from '../rpc';

export type UserStatus = 'active' | 'suspended';

/** The user as the API returns it (SPEC §3 User). */
export interface UserDto {
  id: string;
  username: string;
  name: string | null;
  email: string;
  role: Role;
  bio: string | null;
  website: string | null;
  phone: string | null;
  location: string | null;
  /** Seller verification by an admin (the check mark), not email verification (D13). */
  verified: boolean;
  email_verified: boolean;
  status: UserStatus;
  created_at: string;
}

export interface LoginResponse {
  access_token: string;
  token_type: 'bearer';
  user: UserDto;
}

export interface RegisterResponse {
  message: string;
  user: UserDto;
}
