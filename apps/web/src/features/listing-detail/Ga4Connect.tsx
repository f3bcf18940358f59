import { useState, type FormEvent } from 'react';
import type { VerificationConnectionDto } from '@market/contracts';
import { useStartGa4Mutation } from '../../api/verified-figures.api';
import type { ConfirmRequest } from '../../components/dialog/use-confirm';
import { errorDetail } from '../../lib/error-detail';
import { ConnectionStatus } from './ConnectionStatus';
import { consentTarget, NOT_SET_UP_TEXT, offersConnect, propertyIdProblem, rememberGa4Listing } from './verification-connections';

interface Ga4ConnectProps {
  listingId: string;
  /** The GA4 entry of GET /verifications; undefined when the answer does not name it (not set up). */
  entry: VerificationConnectionDto | undefined;
  ask: (request: ConfirmRequest) => Promise<boolean>;
  /** The panel stopped asking while the first read still runs. */
  slow: boolean;
}

/**
 * Traffic through Google Analytics 4 (ADR 0084): the seller types the property id and is sent to Google to allow
 * read-only access; Google sends them back to /verify/ga4, which finishes the connection.
 */
export function Ga4Connect({ listingId, entry, ask, slow }: Ga4ConnectProps) {
  const [propertyId, setPropertyId] = useState('');
  const [start, { isLoading }] = useStartGa4Mutation();
  const [leaving, setLeaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const invalid = propertyIdProblem(propertyId);
    if (invalid) return setProblem(invalid);
    try {
      const { authorize_url } = await start({ id: listingId, property_id: propertyId.trim() }).unwrap();
      const target = consentTarget(authorize_url);
      if (!target) return setProblem('Google’s consent page could not be opened. Please try again later.');
      rememberGa4Listing(listingId);
      setLeaving(true);
      window.location.assign(target);
    } catch (error) {
      setProblem(errorDetail(error, 'Google Analytics could not be connected. Please try again in a minute.'));
    }
  };

  return (
    <section className="verification-source" aria-labelledby="verify-ga4-title">
      <div className="verification-source-head">
        <h3 id="verify-ga4-title">Traffic · Google Analytics 4</h3>
        {entry?.available && entry.test_mode && <span className="badge badge-test-mode">TEST MODE</span>}
      </div>
      {!entry?.available ? (
        <p className="muted">{NOT_SET_UP_TEXT.ga4}</p>
      ) : (
        <>
          {entry.connection && <ConnectionStatus listingId={listingId} source="ga4" connection={entry.connection} ask={ask} slow={slow} />}
          {offersConnect(entry) && (
            <form className="verification-form" onSubmit={submit} noValidate>
              <label className="field">
                <span>GA4 property id</span>
                <input
                  name="ga4-property-id"
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder="123456789"
                  maxLength={20}
                  value={propertyId}
                  onChange={(event) => setPropertyId(event.target.value)}
                  aria-describedby="ga4-property-help"
                  aria-invalid={Boolean(problem)}
                  required
                />
              </label>
              <small id="ga4-property-help" className="muted field-note">
                In Google Analytics: Admin → Property settings → Property id (a number). Google will ask you to let us read your analytics, read
                only; you can remove the access in your Google account at any time.
              </small>
              {problem && (
                <p className="alert alert-error" role="alert">
                  {problem}
                </p>
              )}
              <button type="submit" className="btn btn-primary" disabled={isLoading || leaving}>
                {leaving ? 'Opening Google...' : isLoading ? 'Starting...' : 'Connect Google Analytics'}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}
