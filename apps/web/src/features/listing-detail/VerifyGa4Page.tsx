import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useFinishGa4Mutation } from '../../api/verified-figures.api';
import { errorDetail } from '../../lib/error-detail';
import { usePageMeta } from '../../lib/page-meta';
import { forgetGa4Listing, GA4_CONNECTED_NOTICE, ga4RefusalText, rememberedGa4Listing } from './verification-connections';

const MISSING = 'This link is missing what Google sends back. Please start again from your listing.';

/**
 * /verify/ga4?code=&state= (ADR 0084): where Google sends the seller back after the consent. Forwards the code and
 * state once, then opens the listing with a notice; shows Google's refusal or the server's {detail} with a link back.
 */
export function VerifyGa4Page() {
  usePageMeta({ title: 'Connecting Google Analytics', noindex: true });
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  const refused = params.get('error');
  const navigate = useNavigate();
  const [finish] = useFinishGa4Mutation();
  const [failure, setFailure] = useState<string | null>(refused ? ga4RefusalText(refused) : !code || !state ? MISSING : null);
  const sent = useRef(false);

  useEffect(() => {
    // One request per consent (its state is single use), even when React runs effects twice in development.
    if (refused || !code || !state || sent.current) return;
    sent.current = true;
    finish({ code, state })
      .unwrap()
      .then((answer) => {
        forgetGa4Listing();
        // Replace: going Back must not land on this used link again.
        navigate(`/listing/${encodeURIComponent(answer.listing_id)}`, { replace: true, state: { notice: GA4_CONNECTED_NOTICE } });
      })
      .catch((error: unknown) => setFailure(errorDetail(error, 'Google Analytics could not be connected. Please try again.')));
  }, [code, state, refused, finish, navigate]);

  const listingId = rememberedGa4Listing();
  return (
    <div className="container section">
      <div className="card center narrow verify-ga4">
        <h1>Google Analytics</h1>
        {failure ? (
          <>
            <p className="alert alert-error" role="alert">
              {failure}
            </p>
            {listingId ? <Link to={`/listing/${listingId}`}>Back to your listing</Link> : <Link to="/dashboard?tab=listings">Back to your listings</Link>}
          </>
        ) : (
          <div role="status">
            <div className="spinner" aria-hidden="true" />
            <p className="muted">Connecting Google Analytics...</p>
          </div>
        )}
      </div>
    </div>
  );
}
