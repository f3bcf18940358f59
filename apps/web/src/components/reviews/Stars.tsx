import './reviews.css';

/** What a rating says to a screen reader: "4.5 out of 5" (whole numbers without a decimal). */
export function starsLabel(rating: number): string {
  return `${Number.isInteger(rating) ? rating : rating.toFixed(1)} out of 5`;
}

/** How much of the five stars a rating fills, as a percentage kept within 0-100. */
export function starsFill(rating: number): number {
  return Math.min(100, Math.max(0, (rating / 5) * 100));
}

/**
 * A rating shown as five stars, filled to the decimal (a seller's mean is one decimal, D23). One image to assistive
 * technology, named by its value, so the five glyphs are never read out.
 */
export function Stars({ rating, size = 'normal' }: { rating: number; size?: 'normal' | 'large' }) {
  return (
    <span className={`stars stars-${size}`} role="img" aria-label={starsLabel(rating)} title={starsLabel(rating)}>
      <span className="stars-empty" aria-hidden="true">
        ★★★★★
      </span>
      <span className="stars-full" aria-hidden="true" style={{ width: `${starsFill(rating)}%` }}>
        ★★★★★
      </span>
    </span>
  );
}
