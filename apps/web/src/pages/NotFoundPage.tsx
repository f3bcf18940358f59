import { Link } from 'react-router-dom';

/** Any route the app does not know. */
export function NotFoundPage() {
  return (
    <div className="container section">
      <div className="card center narrow">
        <h1>Page not found</h1>
        <p className="muted">The page you are looking for does not exist or has moved.</p>
        <Link className="btn btn-primary" to="/">
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
