import { ListingFinancialFields } from '../../components/form/ListingFields';
import type { StepProps } from './step-props';

/** Step 2: revenue, traffic, expenses (D3), margin, age and monetization methods (D2). */
export function FinancialsStep(props: StepProps) {
  return (
    <div>
      <h2>Financials</h2>
      <p className="muted">Whole US dollars. Buyers will ask for proof, so be accurate.</p>
      <ListingFinancialFields {...props} />
    </div>
  );
}
