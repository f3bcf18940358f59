import { Link } from 'react-router-dom';
import { useAppSelector } from '../app/store';

/** /dashboard: requires login; the tabs arrive with their features. */
export function DashboardPage() {
  const { user, status } = useAppSelector((state) => state.session);

  if (status === 'loading') {
    return (
      <div className="container section center" role="status">
        <div className="spinner" aria-hidden="true" />
        <p className="muted">Loading your dashboard...</p>
      </div>
    );
  }
  if (!user) {
    return (
      <div className="container section">
        <div className="card center narrow">
          <h1>Dashboard</h1>
          <p>Please log in to view your dashboard.</p>
          <Link className="btn btn-primary" to="/login">
            Log In
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="container section">
      <h1>Dashboard</h1>
      <p className="muted">
        Signed in as <strong>{user.username}</strong> ({user.email}){user.role === 'admin' ? ' · Administrator' : ''}
      </p>
      <div className="quick-actions">
        <Link className="card quick-action" to="/sell">
          <strong>Sell a website</strong>
          <span className="muted">List your site for auction or at a fixed price.</span>
        </Link>
        <Link className="card quick-action" to="/browse">
          <strong>Browse listings</strong>
          <span className="muted">Find your next online business.</span>
        </Link>
      </div>
    </div>
  );
}
