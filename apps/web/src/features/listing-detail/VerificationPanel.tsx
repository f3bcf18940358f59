import type { ListingDto } from '@market/contracts';
import { useConfirm } from '../../components/dialog/use-confirm';
import { errorDetail } from '../../lib/error-detail';
import { Ga4Connect } from './Ga4Connect';
import { StripeConnect } from './StripeConnect';
import { sourceOf } from './verification-connections';
import { useVerificationConnections } from './use-verification-connections';
import './verified-figures.css';

/**
 * "Verify revenue and traffic" (D24, ADR 0084): the seller connects the site's Stripe account and Google Analytics 4
 * property read-only, and sees each connection's state, followed while the first read runs. Shown to the listing's
 * seller only; buyers see the figures.
 */
export function VerificationPanel({ listing }: { listing: ListingDto }) {
  const { data, error, isLoading, slow } = useVerificationConnections(listing.id, listing.verification);
  const { ask, dialog } = useConfirm();
  return (
    <section className="card verification-panel" aria-labelledby="verification-title" id="verify-figures">
      <h2 id="verification-title">Verify revenue and traffic</h2>
      <p className="muted verification-intro">
        Connect the site’s accounts read-only: buyers then see the verified monthly figures of the last 12 months beside your claims, refreshed
        daily. A claim more than 15% above the verified figure is flagged to buyers.
      </p>
      {isLoading && <p role="status">Loading your connections...</p>}
      {error && <p className="alert alert-error">{errorDetail(error, 'Your connections could not be loaded.')}</p>}
      {data && (
        <>
          <StripeConnect listingId={listing.id} entry={sourceOf(data, 'stripe')} ask={ask} slow={slow} />
          <Ga4Connect listingId={listing.id} entry={sourceOf(data, 'ga4')} ask={ask} slow={slow} />
        </>
      )}
      {dialog}
    </section>
  );
}
