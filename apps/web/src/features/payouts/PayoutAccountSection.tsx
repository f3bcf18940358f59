import { useState } from 'react';
import { Link } from 'react-router-dom';
import { payoutAccountNextStep } from '@market/domain';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { payoutAccountBadge } from '../../components/payouts/payout-status';
import { errorDetail } from '../../lib/error-detail';
import { accountAction, onboardingNotice, requirementsList, type OnboardingReturn } from './payouts';
import { usePayoutAccountQuery, useStartPayoutOnboardingMutation } from './payouts.api';

const START_FAILED = 'Could not open the payout setup. Please try again.';

/**
 * The seller's payout account (D22): its status with one next step, what the provider still asks for, and one button
 * to the provider's hosted onboarding when the seller must act. `returned` says why the seller came back from it.
 */
export function PayoutAccountSection({ returned }: { returned: OnboardingReturn | null }) {
  // Always fresh: the status changes at the provider, and coming back from onboarding must show what it now says.
  const { data, isLoading, isError, error, refetch } = usePayoutAccountQuery(undefined, { refetchOnMountOrArgChange: true });
  const [start, { isLoading: starting }] = useStartPayoutOnboardingMutation();
  const [failure, setFailure] = useState<string | null>(null);

  const open = async () => {
    setFailure(null);
    try {
      const { url } = await start().unwrap();
      // The provider's page (Stripe's, or the sandbox's own): only a web address is followed.
      if (/^https?:\/\//i.test(url)) window.location.assign(url);
      else setFailure(START_FAILED);
    } catch (failed) {
      // A 403 while an admin impersonates says why in its detail.
      setFailure(errorDetail(failed, START_FAILED));
    }
  };

  const action = data ? accountAction(data.status) : null;
  const notice = returned && data ? onboardingNotice(returned, action !== null) : null;
  const badge = data ? payoutAccountBadge(data.status) : null;
  const due = data ? requirementsList(data.requirements_due) : [];
  return (
    <section className="card payout-account" aria-labelledby="payout-account-title">
      <h2 id="payout-account-title">Payout account</h2>
      {isLoading && <LoadingState text="Loading your payout account..." />}
      {isError && <LoadError onRetry={() => void refetch()}>{errorDetail(error, 'Could not load your payout account.')}</LoadError>}
      {notice && (
        <div className={`alert alert-${notice.tone}`} role="status" data-testid="payout-onboarding-notice">
          {notice.text}
        </div>
      )}
      {data && badge && (
        <>
          <div className="payout-account-status" data-testid="payout-account-status" data-status={data.status}>
            <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
            <p>{payoutAccountNextStep(data.status)}</p>
          </div>
          {due.length > 0 && (
            <div className="payout-requirements">
              <p className="muted">The provider still asks for:</p>
              <ul data-testid="payout-requirements">
                {due.map((label) => (
                  <li key={label}>{label}</li>
                ))}
              </ul>
            </div>
          )}
          {action && (
            <button type="button" className="btn btn-primary" data-testid="payout-account-action" disabled={starting} onClick={() => void open()}>
              {starting ? 'Opening...' : action}
            </button>
          )}
        </>
      )}
      {failure && (
        <div className="alert alert-error payout-account-failure" role="alert">
          {failure}
        </div>
      )}
      <p className="muted small payout-account-privacy">
        Identity checks and bank details stay with the payout provider; Site Market stores none of them.{' '}
        <Link to="/help-center?section=faq">How do sellers get paid?</Link>
      </p>
    </section>
  );
}
