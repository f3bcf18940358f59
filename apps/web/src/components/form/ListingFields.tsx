import { DURATION_DAYS, MONETIZATION_METHODS } from '@market/domain';
import type { FieldErrors, ListingFormValues } from '../../lib/listing-form';
import { CheckboxGroupField } from './CheckboxGroupField';
import { SelectField } from './SelectField';
import { TextAreaField } from './TextAreaField';
import { TextField } from './TextField';

/** What a block of listing fields gets: the form's values, their errors and a setter. */
export interface ListingFieldProps {
  values: ListingFormValues;
  errors: FieldErrors;
  set: <K extends keyof ListingFormValues>(field: K, value: ListingFormValues[K]) => void;
}

/** Revenue, traffic, expenses (D3), margin and age in a two-column grid, then the monetization methods (D2). */
export function ListingFinancialFields({ values, errors, set }: ListingFieldProps) {
  const amount = (label: string, field: 'monthly_revenue' | 'annual_revenue' | 'monthly_traffic' | 'monthly_expenses' | 'business_age_months', required = true) => (
    <TextField label={label} name={field} type="number" min="0" step="1" value={values[field]} onChange={(v) => set(field, v)} error={errors[field]} requiredMark={required} />
  );
  return (
    <>
      <div className="form-grid">
        {amount('Monthly revenue ($)', 'monthly_revenue')}
        {amount('Annual revenue ($)', 'annual_revenue')}
        {amount('Monthly traffic (visits)', 'monthly_traffic')}
        {amount('Monthly expenses ($)', 'monthly_expenses', false)}
        <TextField label="Profit margin (%)" name="profit_margin" type="number" step="0.1" value={values.profit_margin} onChange={(v) => set('profit_margin', v)} error={errors.profit_margin} requiredMark />
        {amount('Business age (months)', 'business_age_months')}
      </div>
      <CheckboxGroupField
        legend="Monetization methods"
        name="monetization_methods"
        options={MONETIZATION_METHODS}
        value={values.monetization_methods}
        onChange={(v) => set('monetization_methods', v)}
        error={errors.monetization_methods}
      />
    </>
  );
}

/**
 * The price inputs (reserve and buy-now only for auctions) and the duration, to sit in a form grid.
 * `hints` adds the one-line explanations under the optional prices.
 */
export function ListingPriceFields({ values, errors, set, hints = false }: ListingFieldProps & { hints?: boolean }) {
  const auction = values.listing_type === 'auction';
  const price = (label: string, field: 'starting_price' | 'reserve_price' | 'buy_now_price', min: string, hint?: string) => (
    <TextField label={label} name={field} type="number" min={min} step="1" value={values[field]} onChange={(v) => set(field, v)} error={errors[field]} requiredMark={field === 'starting_price'} hint={hints ? hint : undefined} />
  );
  return (
    <>
      {price(auction ? 'Starting price ($)' : 'Price ($)', 'starting_price', '1')}
      {auction && price('Reserve price ($, optional)', 'reserve_price', '0', 'The lowest price you will accept; hidden from buyers')}
      {auction && price('Buy now price ($, optional)', 'buy_now_price', '0', 'Lets a buyer end the auction at once')}
      <SelectField label="Duration" name="duration_days" value={values.duration_days} onChange={(v) => set('duration_days', v)} error={errors.duration_days}>
        {DURATION_DAYS.map((days) => (
          <option key={days} value={String(days)}>
            {days} days
          </option>
        ))}
      </SelectField>
    </>
  );
}

/** The optional free-text details: key metrics, growth opportunities, included assets, reason for selling. */
export function ListingDetailFields({ values, errors, set }: ListingFieldProps) {
  const area = (label: string, field: 'key_metrics' | 'growth_opportunities' | 'included_assets' | 'reason_for_selling') => (
    <TextAreaField label={label} name={field} rows={3} value={values[field]} onChange={(v) => set(field, v)} error={errors[field]} />
  );
  return (
    <>
      {area('Key metrics', 'key_metrics')}
      {area('Growth opportunities', 'growth_opportunities')}
      {area('Included assets', 'included_assets')}
      {area('Reason for selling', 'reason_for_selling')}
    </>
  );
}
