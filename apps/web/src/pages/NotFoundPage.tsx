import { Link } from 'react-router-dom';
import { usePageMeta } from '../lib/page-meta';

/** Any route the app does not know. */
export function NotFoundPage() {
  usePageMeta({ title: 'Page not found', status: 404, noindex: true });
  return (
    <div className="container section">
      <div className="card center narrow">
        <h1>Page not found</h1>
        <p className="muted">The page you are looking for does not exist or has moved.</p>
        <div className="not-found-links">
          <Link className="btn btn-primary" to="/">
            Go to the home page
          </Link>
          <Link className="btn btn-secondary" to="/browse">
            Browse Websites
          </Link>
        </div>
      </div>
    </div>
  );
}
