import { useState, type FormEvent } from 'react';
import type { PlaceBidResponse } from '@market/contracts';
import { usePlaceBidMutation } from '../../api/bids.api';
import { errorDetail } from '../../lib/error-detail';
import type { BidCheck } from './bid-form';
import { readAmountForm, type BidOutcome } from './max-bid';
import type { FormMessageState } from './use-form-message';

/** What useAmountForm needs: the listing, how to check the amount, and what to say once it is taken. */
export interface AmountFormOptions {
  listingId: string;
  check: (typed: string) => BidCheck;
  withMaximum: boolean;
  outcome: (answer: PlaceBidResponse) => BidOutcome;
  notice: FormMessageState;
  onPlaced?: () => void;
}

/** The state of an amount form (amount, optional maximum, their errors) and its submit to POST /api/bids. */
export function useAmountForm({ listingId, check, withMaximum, outcome, notice, onPlaced }: AmountFormOptions) {
  const { message, setMessage } = notice;
  const [placeBid, { isLoading }] = usePlaceBidMutation();
  const [typed, setTyped] = useState('');
  const [typedMax, setTypedMax] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [maxError, setMaxError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readAmountForm(listingId, check(typed), withMaximum ? typedMax : null);
    setFieldError(read.amountError);
    setMaxError(read.maxError);
    if (!read.body) return;
    setMessage(null);
    const result = await placeBid(read.body);
    if ('error' in result) {
      setMessage({ text: errorDetail(result.error, 'Error placing bid'), tone: 'error', lasting: false });
    } else {
      setTyped('');
      setTypedMax('');
      setMessage(outcome(result.data));
      onPlaced?.();
    }
  };

  return { message, isLoading, typed, typedMax, fieldError, maxError, submit, setTyped, setTypedMax, setFieldError, setMaxError };
}
