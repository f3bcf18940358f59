import './listing-card.css';

/** The "Domain verified" badge of a listing whose seller proved control of its domain (ADR 0040). */
export function VerifiedBadge({ verified }: { verified: boolean }) {
  if (!verified) return null;
  return (
    <span className="badge badge-verified" title="The seller proved control of this website's domain (DNS record or file)">
      <span aria-hidden="true">✓ </span>Domain verified
    </span>
  );
}
