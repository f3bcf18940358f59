import { Link } from 'react-router-dom';
import { formatDollars } from '@market/domain';

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
