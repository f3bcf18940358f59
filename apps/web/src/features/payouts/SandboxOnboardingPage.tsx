import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { SandboxOnboardingRequest } from '@market/contracts';
import { useAppSelector } from '../../lib/store-hooks';
import { payoutAccountBadge } from '../../components/payouts/payout-status';
import { sameOriginPath } from '../../components/payments/payments';
import { errorDetail } from '../../lib/error-detail';
import { usePageMeta } from '../../lib/page-meta';
import { useCompleteSandboxOnboardingMutation, useSandboxOnboardingLinkQuery } from './payouts.api';
import '../../components/payments/payments.css';
import './payouts.css';

type Outcome = SandboxOnboardingRequest['outcome'];

/** What the page says of itself, so no one takes it for a real identity check. */
export const SANDBOX_ONBOARDING_NOTICE =
  "This is the sandbox's stand-in for Stripe's hosted onboarding. No real identity check or bank account is involved.";

const FAILED = 'The test onboarding could not be completed. Please try again.';

/**
 * The sandbox provider's hosted onboarding (D12, D22) at /sandbox-onboarding/{link id}: where "Set up payouts" leads
 * while the sandbox runs the payments. One button completes it; two small links give the provider's other answers for
 * demos and tests. Then the seller goes back to the Payouts tab (the link's return address). With Stripe configured,
 * Stripe hosts this page instead.
 */
export function SandboxOnboardingPage() {
  usePageMeta({ title: 'Payout setup (test mode)' });
  const { linkId = '' } = useParams();
  const navigate = useNavigate();
  const { user, status } = useAppSelector((state) => state.session);
  const { data: link, error, isLoading } = useSandboxOnboardingLinkQuery(linkId, { skip: !user || !linkId });
  const [complete] = useCompleteSandboxOnboardingMutation();
  const [busy, setBusy] = useState<Outcome | null>(null);
  const [failure, setFailure] = useState<{ text: string; expired: boolean } | null>(null);

  const finish = async (outcome: Outcome) => {
    setBusy(outcome);
    setFailure(null);
    try {
      const result = await complete({ id: linkId, outcome }).unwrap();
      const path = sameOriginPath(result.return_url, window.location.origin);
      if (path) navigate(path);
      else if (/^https?:\/\//i.test(result.return_url)) window.location.assign(result.return_url);
      else navigate('/dashboard?tab=payouts&onboarding=return');
    } catch (failed) {
      const notFound = (failed as { status?: unknown } | undefined)?.status === 404;
      setFailure({ text: errorDetail(failed, FAILED), expired: notFound });
    } finally {
      setBusy(null);
    }
  };

  const expired = link?.expired === true || (error as { status?: unknown } | undefined)?.status === 404 || failure?.expired === true;
  return (
    <div className="container section">
      <div className="card sandbox-checkout sandbox-onboarding" data-testid="sandbox-onboarding">
        <div className="sandbox-checkout-banner" role="note">
          TEST MODE · Sandbox payout setup
        </div>
        <div className="sandbox-checkout-body">
          <h1>Set up payouts</h1>
          <p className="sandbox-test-mode">
            <strong>TEST MODE</strong> {SANDBOX_ONBOARDING_NOTICE}
          </p>
          {status === 'loading' && <p className="muted">Loading...</p>}
          {status !== 'loading' && !user && (
            <p>
              Please <Link to="/login">log in</Link> as the seller to set up payouts.
            </p>
          )}
          {user && isLoading && <p className="muted">Loading your payout setup...</p>}
          {user && expired && <ExpiredLink />}
          {user && !expired && error && (
            <p className="alert alert-error" role="alert">
              {errorDetail(error, 'This payout setup could not be loaded.')}
            </p>
          )}
          {user && link && !expired && (
            <>
              <p className="sandbox-onboarding-status">
                Your payout account now: <span className={`badge badge-${payoutAccountBadge(link.status).tone}`}>{payoutAccountBadge(link.status).label}</span>
              </p>
              {failure && (
                <p className="alert alert-error" role="alert">
                  {failure.text}
                </p>
              )}
              <button type="button" className="btn btn-primary" data-testid="sandbox-onboarding-complete" disabled={busy !== null} onClick={() => void finish('complete')}>
                {busy === 'complete' ? 'Completing...' : 'Complete test onboarding'}
              </button>
              <div className="sandbox-onboarding-others">
                <button type="button" className="link-button" disabled={busy !== null} onClick={() => void finish('pending_verification')}>
                  Leave verification pending
                </button>
                <button type="button" className="link-button" disabled={busy !== null} onClick={() => void finish('restricted')}>
                  Simulate a restricted account
                </button>
              </div>
            </>
          )}
          {!expired && (
            <Link className="sandbox-checkout-cancel" to="/dashboard?tab=payouts">
              Cancel and return to Payouts
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}

function ExpiredLink() {
  return (
    <div className="alert alert-warning" role="status" data-testid="sandbox-onboarding-expired">
      This setup link has expired or was already used. Ask for a new one from <Link to="/dashboard?tab=payouts">Dashboard → Payouts</Link>.
    </div>
  );
}
