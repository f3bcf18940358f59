import { Link, Navigate, useParams } from 'react-router-dom';
import { useAppSelector } from '../../lib/store-hooks';
import { useListingQuery } from '../../api/listings.api';
import { EditListingForm } from './EditListingForm';
import './edit-listing.css';
import { usePageMeta } from '../../lib/page-meta';

function Loading({ text }: { text: string }) {
  return (
    <div className="container section center" role="status">
      <div className="spinner" aria-hidden="true" />
      <p className="muted">{text}</p>
    </div>
  );
}

/** /edit-listing/{id}: the seller or an admin edits a listing; others go to /dashboard (SPEC §2, §5). */
export function EditListingPage() {
  usePageMeta({ title: 'Edit Listing' });
  const { id = '' } = useParams();
  const { user, status } = useAppSelector((state) => state.session);
  const { data: listing, isLoading, isError } = useListingQuery(id, { skip: !user || !id, refetchOnMountOrArgChange: true });

  if (status === 'loading') return <Loading text="Loading..." />;
  if (!user) {
    return (
      <div className="container section">
        <div className="card center narrow">
          <h1>Edit Listing</h1>
          <p>Please log in to edit listings.</p>
          <Link className="btn btn-primary" to="/login">
            Log In
          </Link>
        </div>
      </div>
    );
  }
  if (isLoading) return <Loading text="Loading listing..." />;
  if (isError || !listing) {
    return (
      <div className="container section">
        <div className="card center narrow">
          <h1>Edit Listing</h1>
          <div className="alert alert-error" role="alert">
            Error loading listing
          </div>
          <Link to="/dashboard">← Back to Dashboard</Link>
        </div>
      </div>
    );
  }
  if (listing.seller_id !== user.id && user.role !== 'admin') return <Navigate to="/dashboard" replace />;
  return <EditListingForm key={listing.id} listing={listing} />;
}
