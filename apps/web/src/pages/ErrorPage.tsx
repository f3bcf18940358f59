import { Link, useRouteError } from 'react-router-dom';
import { usePageMeta } from '../lib/page-meta';

/** Shown when a page fails to render: a plain apology instead of a stack trace. */
export function ErrorPage() {
  usePageMeta({ title: 'Something went wrong' });
  const error = useRouteError();
  console.error(error);
  return (
    <div className="container section">
      <div className="card center narrow" role="alert">
        <h1>Something went wrong</h1>
        <p className="muted">This page could not be shown. Please reload, or go back to the home page.</p>
        <Link className="btn btn-primary" to="/">
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
