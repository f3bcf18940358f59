import { Link } from 'react-router-dom';
import type { ListingDto } from '@market/contracts';
import { CATEGORIES, OWNER_STATUSES, listingStatusLabel } from '@market/domain';
import { ReviewedFieldsNotice } from './ReviewedFieldsNotice';
import type { ListingFormValues } from '../../lib/listing-form';
import { ListingDetailFields, ListingFinancialFields, ListingPriceFields } from '../../components/form/ListingFields';
import { SelectField } from '../../components/form/SelectField';
import { TextAreaField } from '../../components/form/TextAreaField';
import { TextField } from '../../components/form/TextField';
import { EditScreenshots } from './EditScreenshots';
import { useEditListing } from './use-edit-listing';

/** The one-page edit form; saves as multipart PATCH and returns to the dashboard after 2 s (SPEC §2, §7). */
export function EditListingForm({ listing }: { listing: ListingDto }) {
  const { values, set, errors, formRef, status, setStatus, kept, setKept, added, setAdded, saving, progress, message, auction, locked, ownerStatus, onSubmit } =
    useEditListing(listing);

  return (
    <div className="container section edit-page">
      <Link to="/dashboard" className="edit-back">
        ← Back to Dashboard
      </Link>
      <h1>Edit Listing</h1>
      <p className="muted">
        Current status: <span className="badge badge-gray">{listingStatusLabel(listing.status)}</span>
      </p>
      <ReviewedFieldsNotice listing={listing} locked={locked} />
      <form ref={formRef} className="card edit-card" onSubmit={onSubmit} noValidate>
        <h2>Basic info</h2>
        <fieldset className="plain-fieldset" disabled={locked}>
          <TextField label="Title" name="title" value={values.title} onChange={(v) => set('title', v)} error={errors.title} requiredMark />
          <TextField label="Website URL" name="website_url" type="url" value={values.website_url} onChange={(v) => set('website_url', v)} error={errors.website_url} requiredMark />
        </fieldset>
        <div className="form-grid">
          <fieldset className="plain-fieldset" disabled={locked}>
            <SelectField label="Category" name="category" value={values.category} onChange={(v) => set('category', v)} error={errors.category} requiredMark>
              {!(CATEGORIES as readonly string[]).includes(values.category) && <option value="">Choose a category</option>}
              {CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </SelectField>
          </fieldset>
          <SelectField label="Status" name="status" value={status} onChange={setStatus}>
            {!ownerStatus && <option value={listing.status}>{listingStatusLabel(listing.status)} (current)</option>}
            {OWNER_STATUSES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className="plain-fieldset" disabled={locked}>
          <TextAreaField label="Description" name="description" rows={6} value={values.description} onChange={(v) => set('description', v)} error={errors.description} requiredMark />

          <h2>Financials</h2>
          <ListingFinancialFields values={values} errors={errors} set={set} />
        </fieldset>

        <h2>Pricing</h2>
        <fieldset className="plain-fieldset form-grid" disabled={locked}>
          <SelectField label="Listing type" name="listing_type" value={values.listing_type} onChange={(v) => set('listing_type', v as ListingFormValues['listing_type'])}>
            <option value="auction">Auction</option>
            <option value="fixed">Fixed price</option>
          </SelectField>
          {auction && (
            <SelectField label="Auction type" name="auction_type" value={values.auction_type} onChange={(v) => set('auction_type', v as ListingFormValues['auction_type'])}>
              <option value="auto">Automatic</option>
              <option value="manual">Manual</option>
            </SelectField>
          )}
          <ListingPriceFields values={values} errors={errors} set={set} />
        </fieldset>

        <h2>Details</h2>
        <ListingDetailFields values={values} errors={errors} set={set} />

        <h2>Media</h2>
        <EditScreenshots kept={kept} onKeptChange={setKept} added={added} onAddedChange={setAdded} />

        {message && (
          <div className={`alert ${message.kind === 'success' ? 'alert-success' : 'alert-error'}`} role={message.kind === 'success' ? 'status' : 'alert'}>
            {message.text}
          </div>
        )}
        {saving && <SaveProgress progress={progress} />}
        <div className="edit-actions">
          <Link className="btn btn-ghost" to="/dashboard">
            Cancel
          </Link>
          <button type="submit" className="btn btn-primary" disabled={saving || message?.kind === 'success'}>
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </div>
  );
}

/** How far the save's upload has come. */
function SaveProgress({ progress }: { progress: number }) {
  const percent = Math.round(progress * 100);
  return (
    <div className="edit-progress">
      <span>Saving... {percent}%</span>
      <div className="edit-bar" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
