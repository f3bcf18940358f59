import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { formatDollars } from '@market/domain';
import { buyNowQuestion, type BuyNowOutcome } from './buy-now';

export interface BuyNowDialogProps {
  title: string;
  price: number;
  /** The purchase is on its way: nothing may send it again or close the dialog under it. */
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The buy-now confirmation: it names the listing and the price, and can be sent once. */
export function BuyNowDialog({ title, price, busy, onConfirm, onCancel }: BuyNowDialogProps) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busy) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [busy, onCancel]);

  return (
    <div className="modal-backdrop" role="presentation" onClick={busy ? undefined : onCancel}>
      <div
        className="modal card buy-now-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="buy-now-title"
        aria-describedby="buy-now-terms"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="buy-now-title">Confirm purchase</h2>
        <p className="buy-now-question">{buyNowQuestion(title, price)}</p>
        <p id="buy-now-terms" className="muted buy-now-terms">
          You commit to buy this website at {formatDollars(price)}. An invoice due in 7 days is made out to you, and the listing is
          no longer for sale to anyone else.
        </p>
        <div className="buy-now-buttons">
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>
            {busy ? 'Processing purchase...' : `Buy for ${formatDollars(price)}`}
          </button>
          {/* Focus starts on Cancel: an Enter pressed by habit must not buy a website. */}
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy} autoFocus>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}

/** The panel's note after a purchase: where the buyer is going next, or what went wrong (SPEC §4, §8). */
export function BuyNowNotice({ outcome }: { outcome: BuyNowOutcome }) {
  switch (outcome.kind) {
    case 'redirect':
      return (
        <div className="alert alert-info panel-notice" role="status">
          Purchase successful. Taking you to secure payment...
        </div>
      );
    case 'invoice':
      return (
        <div className="alert alert-success panel-notice" role="status" data-testid="buy-now-outcome">
          {outcome.text} Taking you to your invoice... <Link to={outcome.to}>Go now</Link>
        </div>
      );
    case 'setup_failed':
      return (
        <div className="alert alert-warning panel-notice" role="alert" data-testid="buy-now-outcome">
          {outcome.text}
        </div>
      );
    case 'success':
      return (
        <div className="alert alert-success panel-notice" role="status" data-testid="buy-now-outcome">
          {outcome.text}
          {outcome.to && (
            <>
              {' '}
              <Link to={outcome.to}>View your invoice</Link>
            </>
          )}
        </div>
      );
    case 'error':
      return (
        <div className="alert alert-error panel-notice" role="alert" data-testid="buy-now-outcome">
          {outcome.text}
        </div>
      );
  }
}
