import { Link } from 'react-router-dom';
import { EmptyState } from '../../components/feedback/QueryState';

/** The empty state of the user's listings, pointing to the sell wizard. */
export function NoListingsYet() {
  return (
    <EmptyState>
      <p>You have not listed any websites yet.</p>
      <Link className="btn btn-primary" to="/sell">
        Sell your first website
      </Link>
    </EmptyState>
  );
}

/** View and Edit links on one of the user's listing cards. */
export function ViewEditLinks({ id }: { id: string }) {
  return (
    <>
      <Link className="btn btn-secondary btn-tiny" to={`/listing/${id}`}>
        View
      </Link>
      <Link className="btn btn-ghost btn-tiny" to={`/edit-listing/${id}`}>
        Edit
      </Link>
    </>
  );
}
