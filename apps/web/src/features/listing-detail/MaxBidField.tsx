import { DollarField } from './DollarField';
import { MAX_BID_RULE } from './max-bid';

export interface MaxBidFieldProps {
  value: string;
  /** The message under the field, or null. */
  error: string | null;
  /** The least a maximum may be right now: the minimum next bid (a maximum is at least the bid). */
  min: number;
  onChange: (typed: string) => void;
}

/** "Bid up to" on an automatic auction's bid form (proxy bidding, ADR 0055): optional, with its rule in one sentence. */
export function MaxBidField({ value, error, min, onChange }: MaxBidFieldProps) {
  const label = (
    <>
      Bid up to <span className="field-note muted">(optional)</span>
    </>
  );
  return <DollarField label={label} name="max_amount" value={value} error={error} min={min} rule={MAX_BID_RULE} onChange={onChange} />;
}
