import { useSearchParams } from 'react-router-dom';
import { onboardingReturnOf } from './payouts';
import { PayoutAccountSection } from './PayoutAccountSection';
import { PayoutHistory } from './PayoutHistory';
import './payouts.css';

/**
 * Dashboard → Payouts (D22): the seller's payout account and the money of their sales. `?onboarding=refresh|return` is
 * where the provider's hosted onboarding sends the seller back (an expired link, or details given).
 */
export function PayoutsTab() {
  const [params] = useSearchParams();
  return (
    <div className="payouts">
      <PayoutAccountSection returned={onboardingReturnOf(params.get('onboarding'))} />
      <PayoutHistory />
    </div>
  );
}
