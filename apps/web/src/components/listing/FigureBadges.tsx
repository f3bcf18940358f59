import { CLAIM_BACKED_TITLE } from './figure-badges';
import './listing-card.css';

interface FigureBadgesProps {
  /** The revenue claim is backed by current Stripe figures (the listing's `revenue_verified`, ADR 0084). */
  revenue: boolean;
  /** The traffic claim is backed by current Google Analytics 4 figures (the listing's `traffic_verified`). */
  traffic: boolean;
}

/**
 * The small "Revenue verified" and "Traffic verified" badges of D24, on cards and the listing page: only a claim backed
 * by a current figure (at most 15% above it) earns one (ADR 0084).
 */
export function FigureBadges({ revenue, traffic }: FigureBadgesProps) {
  return (
    <>
      {revenue && (
        <span className="badge badge-verified" title={CLAIM_BACKED_TITLE.revenue} data-testid="revenue-verified-badge">
          <span aria-hidden="true">✓ </span>Revenue verified
        </span>
      )}
      {traffic && (
        <span className="badge badge-verified" title={CLAIM_BACKED_TITLE.traffic} data-testid="traffic-verified-badge">
          <span aria-hidden="true">✓ </span>Traffic verified
        </span>
      )}
    </>
  );
}
