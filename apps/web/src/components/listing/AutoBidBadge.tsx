/**
 * The mark of a bid the system placed for a bidder's maximum (proxy bidding, ADR 0055): "auto" on screen, the whole
 * meaning for screen readers. It never names the maximum, which only its owner may see.
 */
export function AutoBidBadge({ label = 'placed automatically for a maximum' }: { label?: string }) {
  return (
    <span className="badge badge-gray auto-bid-badge" title={label.charAt(0).toUpperCase() + label.slice(1)}>
      <span aria-hidden="true">auto</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
