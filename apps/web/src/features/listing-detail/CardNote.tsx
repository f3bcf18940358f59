import { Link } from 'react-router-dom';
import { formatDollars } from '@market/domain';
import type { FormMessage } from './use-form-message';

/** Where a bidder saves a card (the profile's Payment method section, ADR 0041). */
export const PAYMENT_METHOD_LINK = '/dashboard?tab=profile#payment-method';

/** The note under a large amount: the limit, and where to add the card the server will ask for (ADR 0041). */
export function CardNote({ limit }: { limit: number }) {
  return (
    <p className="panel-small" data-testid="large-bid-note">
      Bids above {formatDollars(limit)} need a verified card on file. <Link to={PAYMENT_METHOD_LINK}>Add a card in your profile</Link>.
    </p>
  );
}

/** A bid form's outcome; a refusal of a large amount links to where the card it needs is saved (ADR 0041). */
export function BidOutcomeNote({ message, large }: { message: FormMessage; large: boolean }) {
  return (
    <div className={`alert alert-${message.tone} panel-notice`} role={message.tone === 'success' ? 'status' : 'alert'} data-testid="bid-outcome">
      {message.text}
      {message.tone === 'error' && large && (
        <>
          {' '}
          <Link to={PAYMENT_METHOD_LINK}>Go to Payment method</Link>
        </>
      )}
    </div>
  );
}
