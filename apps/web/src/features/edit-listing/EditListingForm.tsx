import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ListingDto } from '@market/contracts';
import { CATEGORIES, OWNER_STATUSES, listingStatusLabel } from '@market/domain';
import { ReviewedFieldsNotice } from './ReviewedFieldsNotice';
import { useAppDispatch } from '../../lib/store-hooks';
import { announceSessionEnded, api } from '../../lib/api';
import { buildUpdateFormData, listingErrorText, listingToForm, validateListing, type ListingFormValues } from '../../lib/listing-form';
import { useListingFormState } from '../../lib/listing-form-state';
import { uploadMultipart } from '../../lib/upload';
import { ListingDetailFields, ListingFinancialFields, ListingPriceFields } from '../../components/form/ListingFields';
import { SelectField } from '../../components/form/SelectField';
import { TextAreaField } from '../../components/form/TextAreaField';
import { TextField } from '../../components/form/TextField';
import { EditScreenshots } from './EditScreenshots';

const REDIRECT_MS = 2000;

/** The one-page edit form; saves as multipart PATCH and returns to the dashboard after 2 s (SPEC §2, §7). */
export function EditListingForm({ listing }: { listing: ListingDto }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { values, set, errors, setErrors, formRef, focusFirstInvalid } = useListingFormState(() => listingToForm(listing));
  const [status, setStatus] = useState<string>(listing.status);
  const [kept, setKept] = useState<string[]>(listing.screenshots);
  const [added, setAdded] = useState<File[]>([]);
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState(0);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (message?.kind !== 'success') return;
    const timer = setTimeout(() => navigate('/dashboard'), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [message, navigate]);

  const auction = values.listing_type === 'auction';
  // Bidders committed to what the review vouched for: with bids those fields are locked (ADR 0042).
  const locked = listing.bid_count > 0 && listing.status !== 'sold';
  const ownerStatus = (OWNER_STATUSES as readonly string[]).includes(listing.status);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateListing(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setMessage({ kind: 'error', text: 'Please fix the highlighted fields.' });
      focusFirstInvalid();
      return;
    }
    setSaving(true);
    setMessage(null);
    setProgress(0);
    const result = await uploadMultipart({
      method: 'PATCH',
      path: `/listings/${encodeURIComponent(listing.id)}`,
      body: buildUpdateFormData(values, { status, keptScreenshots: kept, newScreenshots: added }),
      onProgress: setProgress,
      onSessionEnded: () => announceSessionEnded(dispatch),
    });
    setSaving(false);
    if (result.ok) {
      dispatch(api.util.invalidateTags(['MyListings', 'Listings', 'AdminListings', 'Watchlist', { type: 'Listing', id: listing.id }]));
      const sentToReview = listing.status !== 'pending' && (result.body as { status?: string } | null)?.status === 'pending';
      setMessage({
        kind: 'success',
        text: sentToReview
          ? 'Your changes were sent for review: the listing is hidden until an admin approves them. Redirecting to your dashboard...'
          : 'Listing updated successfully! Redirecting to your dashboard...',
      });
      return;
    }
    const detail = listingErrorText(result.body, '');
    setMessage({ kind: 'error', text: detail ? `Error updating listing: ${detail}` : 'Error updating listing' });
  };

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
        {saving && (
          <div className="edit-progress">
            <span>Saving... {Math.round(progress * 100)}%</span>
            <div className="edit-bar" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
              <div style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
          </div>
        )}
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
