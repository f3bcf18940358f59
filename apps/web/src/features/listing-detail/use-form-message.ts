import { useEffect, useState } from 'react';
import type { BidOutcome } from './max-bid';

const MESSAGE_MS = 4000;

/** What a bid form says after a submit: the outcome of an accepted amount, or the server's refusal (which fades). */
export type FormMessage = BidOutcome | { text: string; tone: 'error'; lasting: false };

/** A form's message and its setter; the owner may outlive the form that set it. */
export interface FormMessageState {
  message: FormMessage | null;
  setMessage: (message: FormMessage | null) => void;
}

/**
 * The message under a bid form. Held by the bid form's owner, so it survives the switch between "Place a bid" and
 * "Raise your maximum" that the bid itself causes (ADR 0060). Being outbid at once, or leading under a maximum, stays
 * until the next request: it is news the bidder must not miss; the rest fades.
 */
export function useFormMessage(): FormMessageState {
  // A fresh object per outcome, so the same text twice in a row still restarts the timer.
  const [message, setMessage] = useState<FormMessage | null>(null);
  useEffect(() => {
    if (!message || message.lasting) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);
  return { message, setMessage };
}
