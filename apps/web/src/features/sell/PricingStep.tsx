import { ListingDetailFields, ListingPriceFields } from '../../components/form/ListingFields';
import type { StepProps } from './step-props';

/** Step 3: listing and auction type, prices (reserve and buy-now only for auctions), duration and the extra details. */
export function PricingStep({ values, errors, set }: StepProps) {
  const auction = values.listing_type === 'auction';
  return (
    <div>
      <h2>Pricing</h2>
      <fieldset className="form-fieldset">
        <legend>Listing type</legend>
        <div className="choice-row">
          <label className={`choice-card${auction ? ' selected' : ''}`}>
            <input type="radio" name="listing_type" value="auction" checked={auction} onChange={() => set('listing_type', 'auction')} />
            <strong>Auction</strong>
            <small className="muted">Buyers bid; the best offer wins</small>
          </label>
          <label className={`choice-card${!auction ? ' selected' : ''}`}>
            <input type="radio" name="listing_type" value="fixed" checked={!auction} onChange={() => set('listing_type', 'fixed')} />
            <strong>Fixed price</strong>
            <small className="muted">One price, buyers purchase or make offers</small>
          </label>
        </div>
      </fieldset>
      {auction && (
        <fieldset className="form-fieldset">
          <legend>Auction type</legend>
          <div className="choice-row">
            <label className={`choice-card${values.auction_type === 'auto' ? ' selected' : ''}`}>
              <input type="radio" name="auction_type" value="auto" checked={values.auction_type === 'auto'} onChange={() => set('auction_type', 'auto')} />
              <strong>Automatic</strong>
              <small className="muted">The highest bid at the end wins</small>
            </label>
            <label className={`choice-card${values.auction_type === 'manual' ? ' selected' : ''}`}>
              <input type="radio" name="auction_type" value="manual" checked={values.auction_type === 'manual'} onChange={() => set('auction_type', 'manual')} />
              <strong>Manual</strong>
              <small className="muted">You accept or reject each bid</small>
            </label>
          </div>
        </fieldset>
      )}
      <div className="form-grid">
        <ListingPriceFields values={values} errors={errors} set={set} hints />
      </div>
      <h3 className="subheading">More details (optional)</h3>
      <ListingDetailFields values={values} errors={errors} set={set} />
    </div>
  );
}
