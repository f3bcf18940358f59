/** One bid waiting in its listing's sequencer (ADR 0058), with what its own request carried. */
export interface QueuedBid {
  bidder: { id: string; name: string };
  amount: number;
  max_amount: number | null;
  /** When the bid arrived: it is decided as of then (D9), as a bid placed alone is decided as of its request. */
  now: Date;
  anti_sniping_minutes: number;
  /** The caller's request id and trace (ADR 0049), for the bid.placed rows it causes. */
  request_id: string | null;
  traceparent: string | null;
  /** When the caller stops waiting (epoch ms, ADR 0047), or null: a bid decided after it would be stored unanswered. */
  deadline?: number | null;
}
