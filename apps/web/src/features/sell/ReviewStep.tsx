import { formatBusinessAge, formatDollars, formatTraffic } from '@market/domain';
import type { ListingFormValues } from '../../lib/listing-form';

interface ReviewStepProps {
  values: ListingFormValues;
  files: File[];
  onEdit: (step: number) => void;
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="review-row">
      <dt>{label}</dt>
      <dd>{value.trim() === '' ? '—' : value}</dd>
    </div>
  );
}

function Section({ title, step, onEdit, children }: { title: string; step: number; onEdit: (step: number) => void; children: React.ReactNode }) {
  return (
    <section className="review-section">
      <div className="review-head">
        <h3>{title}</h3>
        <button type="button" className="btn btn-ghost btn-tiny" onClick={() => onEdit(step)} aria-label={`Edit ${title}`}>
          Edit
        </button>
      </div>
      <dl>{children}</dl>
    </section>
  );
}

const num = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
// Form text as dollars; an unreadable amount shows nothing rather than $NaN.
const dollars = (value: string) => (Number.isFinite(Number(value)) ? formatDollars(Number(value)) : '');

/** Step 5: everything the seller entered, with links back to each step. */
export function ReviewStep({ values, files, onEdit }: ReviewStepProps) {
  const auction = values.listing_type === 'auction';
  const traffic = num(values.monthly_traffic);
  const age = num(values.business_age_months);
  return (
    <div>
      <h2>Review</h2>
      <p className="muted">Check your listing before you submit it for review.</p>
      <Section title="Basic Info" step={1} onEdit={onEdit}>
        <Row label="Title" value={values.title} />
        <Row label="Website URL" value={values.website_url} />
        <Row label="Category" value={values.category} />
        <Row label="Description" value={values.description} />
      </Section>
      <Section title="Financials" step={2} onEdit={onEdit}>
        <Row label="Monthly revenue" value={dollars(values.monthly_revenue)} />
        <Row label="Annual revenue" value={dollars(values.annual_revenue)} />
        <Row label="Monthly traffic" value={Number.isFinite(traffic) ? `${formatTraffic(traffic)} visits` : ''} />
        <Row label="Monthly expenses" value={dollars(values.monthly_expenses || '0')} />
        <Row label="Profit margin" value={values.profit_margin ? `${values.profit_margin}%` : ''} />
        <Row label="Business age" value={Number.isFinite(age) ? formatBusinessAge(age) : ''} />
        <Row label="Monetization" value={values.monetization_methods.join(', ')} />
      </Section>
      <Section title="Pricing" step={3} onEdit={onEdit}>
        <Row label="Listing type" value={auction ? `Auction (${values.auction_type === 'auto' ? 'automatic' : 'manual'})` : 'Fixed price'} />
        <Row label={auction ? 'Starting price' : 'Price'} value={dollars(values.starting_price)} />
        {auction && <Row label="Reserve price" value={values.reserve_price ? dollars(values.reserve_price) : 'None'} />}
        {auction && <Row label="Buy now price" value={values.buy_now_price ? dollars(values.buy_now_price) : 'None'} />}
        <Row label="Duration" value={`${values.duration_days} days`} />
        <Row label="Key metrics" value={values.key_metrics} />
        <Row label="Growth opportunities" value={values.growth_opportunities} />
        <Row label="Included assets" value={values.included_assets} />
        <Row label="Reason for selling" value={values.reason_for_selling} />
      </Section>
      <Section title="Media" step={4} onEdit={onEdit}>
        <Row label="Screenshots" value={files.length === 0 ? 'None' : files.map((file) => file.name).join(', ')} />
      </Section>
    </div>
  );
}
