import { useState } from 'react';
import type { ListingDto } from '@market/contracts';
import { useCheckListingOwnershipMutation, useListingOwnershipQuery } from '../../api/ownership.api';
import { errorDetail } from '../../lib/error-detail';

/**
 * "Verify ownership" (ADR 0040): the seller publishes the listing's token as a DNS TXT record or a well-known file, then
 * presses Check now. Shown to the listing's seller only; everyone sees the resulting badge.
 */
export function OwnershipPanel({ listing }: { listing: ListingDto }) {
  const { data: proof, error: loadError, isLoading } = useListingOwnershipQuery(listing.id);
  const [check, { isLoading: checking }] = useCheckListingOwnershipMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const runCheck = async () => {
    setProblem(null);
    try {
      const result = await check(listing.id).unwrap();
      if (!result.verified) setProblem('The check did not find the token yet. Please try again in a minute.');
    } catch (error) {
      setProblem(errorDetail(error, 'The check could not run. Please try again in a minute.'));
    }
  };
  const copy = (what: string, value: string) => {
    void navigator.clipboard?.writeText(value).then(() => setCopied(what), () => undefined);
  };

  return (
    <section className="card ownership-panel" aria-labelledby="ownership-title" id="ownership">
      <h2 id="ownership-title">Verify ownership</h2>
      {isLoading && <p role="status">Loading your verification token...</p>}
      {loadError && <p className="alert alert-error">{errorDetail(loadError, 'Your verification token could not be loaded.')}</p>}
      {proof && proof.verified && (
        <p className="alert alert-success" role="status">
          <strong>Domain verified.</strong> You proved control of {proof.domain}
          {proof.verified_at ? ` on ${new Date(proof.verified_at).toLocaleDateString()}` : ''} ({proof.method === 'dns' ? 'DNS record' : 'file'}). Buyers
          see the badge on this listing. Changing the website address removes it.
        </p>
      )}
      {proof && !proof.verified && (
        <>
          <p className="muted">
            Show buyers you control <strong>{proof.domain ?? listing.website_url}</strong>: publish this token in one of two ways, then press Check
            now.
          </p>
          <ol className="ownership-steps">
            <li>
              Add a <strong>TXT record</strong> on {proof.domain ?? 'the domain'} with the value
              <code className="ownership-value" data-testid="ownership-txt">{proof.txt_record}</code>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => copy('txt', proof.txt_record)}>
                {copied === 'txt' ? 'Copied' : 'Copy'}
              </button>
            </li>
            <li>
              Or serve a file at <code className="ownership-value">{proof.file_url ?? '/.well-known/site-market-verification.txt'}</code> holding
              the token <code className="ownership-value" data-testid="ownership-token">{proof.token}</code>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => copy('token', proof.token)}>
                {copied === 'token' ? 'Copied' : 'Copy'}
              </button>
            </li>
          </ol>
          <p className="muted">DNS changes can take a few minutes to appear. We never follow redirects to private addresses.</p>
          <button type="button" className="btn btn-primary" onClick={runCheck} disabled={checking}>
            {checking ? 'Checking...' : 'Check now'}
          </button>
          {problem && (
            <p className="alert alert-error" role="alert">
              {problem}
            </p>
          )}
        </>
      )}
    </section>
  );
}
