import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The query parameter naming the invoice whose review dialog is open, so a reload keeps it open (D23). */
export const REVIEW_PARAM = 'review';

/** The invoice id in ?review=, and opening (a history entry: Back closes it) or closing the dialog it names. */
export function useReviewParam(): { reviewId: string | null; openReview: (invoiceId: string) => void; closeReview: () => void } {
  const [params, setParams] = useSearchParams();
  const openReview = useCallback(
    (invoiceId: string) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(REVIEW_PARAM, invoiceId);
        return next;
      }),
    [setParams],
  );
  const closeReview = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(REVIEW_PARAM);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { reviewId: params.get(REVIEW_PARAM), openReview, closeReview };
}
