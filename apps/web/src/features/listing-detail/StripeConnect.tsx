import { useRef, useState, type FormEvent } from 'react';
import type { VerificationConnectionDto } from '@market/contracts';
import { useConnectStripeMutation } from '../../api/verified-figures.api';
import type { ConfirmRequest } from '../../components/dialog/use-confirm';
import { errorDetail } from '../../lib/error-detail';
import { ConnectionStatus } from './ConnectionStatus';
import { NOT_SET_UP_TEXT, offersConnect, STRIPE_CONNECTED_TEXT, stripeKeyPrefixText, stripeKeyProblem } from './verification-connections';
import { firstReadFailed } from './verification-reading';

interface StripeConnectProps {
  listingId: string;
  /** The Stripe entry of GET /verifications; undefined when the answer does not name Stripe (not set up). */
  entry: VerificationConnectionDto | undefined;
  ask: (request: ConfirmRequest) => Promise<boolean>;
  /** The panel stopped asking while the first read still runs. */
  slow: boolean;
}

/**
 * Revenue through Stripe (ADR 0084): the seller pastes a restricted key with "Charges: Read". The field is uncontrolled
 * and emptied as soon as the form is sent, so the key is never kept in the page's state nor shown back; the mutation is
 * reset once it settles, so the store keeps no copy either (RTK Query holds its `originalArgs` until then).
 */
export function StripeConnect({ listingId, entry, ask, slow }: StripeConnectProps) {
  const keyField = useRef<HTMLInputElement>(null);
  const [connect, { isLoading, reset }] = useConnectStripeMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const key = (keyField.current?.value ?? '').trim();
    if (keyField.current) keyField.current.value = '';
    setProblem(null);
    setDone(false);
    const invalid = stripeKeyProblem(key, entry?.test_mode ?? false);
    if (invalid) return setProblem(invalid);
    try {
      await connect({ id: listingId, key }).unwrap();
      setDone(true);
    } catch (error) {
      setProblem(errorDetail(error, 'Stripe could not check the key. Please try again in a minute.'));
    } finally {
      reset();
    }
  };

  return (
    <section className="verification-source" aria-labelledby="verify-stripe-title">
      <div className="verification-source-head">
        <h3 id="verify-stripe-title">Revenue · Stripe</h3>
        {entry?.available && entry.test_mode && <span className="badge badge-test-mode">TEST MODE</span>}
      </div>
      {!entry?.available ? (
        <p className="muted">{NOT_SET_UP_TEXT.stripe}</p>
      ) : (
        <>
          {/* A first read that failed says so in the status below: "in a moment" would no longer be true. */}
          {done && !firstReadFailed(entry.connection) && (
            <p className="alert alert-success" role="status">
              {STRIPE_CONNECTED_TEXT}
            </p>
          )}
          {entry.connection && <ConnectionStatus listingId={listingId} source="stripe" connection={entry.connection} ask={ask} slow={slow} />}
          {offersConnect(entry) && (
            <form className="verification-form" onSubmit={submit} noValidate>
              <label className="field">
                <span>{entry.connection ? 'New restricted key' : 'Restricted key'}</span>
                <input
                  ref={keyField}
                  type="password"
                  name="stripe-restricted-key"
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="off"
                  placeholder={entry.test_mode ? 'rk_test_…' : 'rk_live_…'}
                  aria-describedby="stripe-key-help"
                  aria-invalid={Boolean(problem)}
                  required
                />
              </label>
              <small id="stripe-key-help" className="muted field-note">
                In the Stripe Dashboard → Developers → API keys, create a restricted key with <strong>“Charges: Read”</strong> and nothing else,
                then paste it here. {stripeKeyPrefixText(entry.test_mode)} We keep it encrypted, never show it again, and only read; you can revoke
                it in Stripe at any time. Never paste a secret key (sk_).
              </small>
              {problem && (
                <p className="alert alert-error" role="alert">
                  {problem}
                </p>
              )}
              <button type="submit" className="btn btn-primary" disabled={isLoading}>
                {isLoading ? 'Checking the key...' : 'Connect Stripe'}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}
