import { Link } from 'react-router-dom';
import type { UserDto } from '@market/contracts';
import { RecentListings } from '../features/my-listings/RecentListings';

/** A member's dashboard overview: the verify-email reminder, quick actions and their recent listings. */
export function UserOverview({ user }: { user: UserDto }) {
  return (
    <>
      {!user.email_verified && (
        <div className="alert alert-warning" role="status">
          Please verify your email address. <Link to="/dashboard?tab=profile">Resend the link from your profile.</Link>
        </div>
      )}
      <div className="quick-actions">
        <Link className="card quick-action" to="/sell">
          <strong>Sell a website</strong>
          <span className="muted">List your site for auction or at a fixed price.</span>
        </Link>
        <Link className="card quick-action" to="/dashboard?tab=watchlist">
          <strong>Watchlist</strong>
          <span className="muted">Listings you are keeping an eye on.</span>
        </Link>
        <Link className="card quick-action" to="/browse">
          <strong>Browse listings</strong>
          <span className="muted">Find your next online business.</span>
        </Link>
      </div>
      <RecentListings />
    </>
  );
}
