import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useBuyNowMutation } from '../../api/invoices.api';
import { FALLBACK_REDIRECT_MS, performBuyNow, type BuyNowOutcome } from './buy-now';

export interface BuyNowState {
  /** The confirmation dialog is open. */
  confirming: boolean;
  /** The purchase is on its way. */
  busy: boolean;
  /** The last answer, shown in the panel; null before any. */
  outcome: BuyNowOutcome | null;
  /** The purchase went through (whatever happened to its payment): Buy Now is done on this page. */
  bought: boolean;
  ask: () => void;
  cancel: () => void;
  confirm: () => void;
}

/**
 * Buy now on a listing page (SPEC §4): confirm, send once, then follow the answer: to the checkout, to the invoice
 * after 2 s, or a message. A ref guards the send, so a double click between renders cannot buy twice.
 */
export function useBuyNow(listingId: string): BuyNowState {
  const navigate = useNavigate();
  const [buyNow, { isLoading }] = useBuyNowMutation();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<BuyNowOutcome | null>(null);
  const sending = useRef(false);
  const bought = outcome !== null && outcome.kind !== 'error';

  useEffect(() => {
    if (outcome?.kind !== 'invoice') return;
    const timer = setTimeout(() => navigate(outcome.to), FALLBACK_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate]);

  const confirm = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    const result = await performBuyNow({ send: () => buyNow({ listing_id: listingId }).unwrap(), origin: window.location.origin });
    setConfirming(false);
    setOutcome(result);
    // Only a refusal may be tried again; a purchase that went through stays sent.
    if (result.kind === 'error') sending.current = false;
    if (result.kind === 'redirect') window.location.assign(result.url);
  }, [buyNow, listingId]);

  return {
    confirming,
    busy: isLoading,
    outcome,
    bought,
    ask: useCallback(() => {
      setOutcome((last) => (last?.kind === 'error' ? null : last));
      setConfirming(true);
    }, []),
    cancel: useCallback(() => setConfirming(false), []),
    confirm: () => void confirm(),
  };
}
