import type { UserDto } from '@market/contracts';
import type { UserEntity } from './user.entity';

/** The fields a user is presented from. */
export type PresentedUser = Pick<
  UserEntity,
  'id' | 'username' | 'name' | 'email' | 'role' | 'bio' | 'website' | 'phone' | 'location' | 'verified' | 'emailVerifiedAt' | 'status' | 'createdAt'
>;

/** The API's view of a user: never the password hash or token version. */
export function presentUser(user: PresentedUser): UserDto {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    role: user.role,
    bio: user.bio,
    website: user.website,
    phone: user.phone,
    location: user.location,
    verified: user.verified,
    email_verified: user.emailVerifiedAt !== null,
    status: user.status === 'suspended' ? 'suspended' : 'active',
    created_at: user.createdAt.toISOString(),
  };
}
