import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ListingDto } from '@market/contracts';
import { OWNER_STATUSES } from '@market/domain';
import { useAppDispatch } from '../../lib/store-hooks';
import { announceSessionEnded, api } from '../../lib/api';
import { buildUpdateFormData, listingErrorText, listingToForm, validateListing } from '../../lib/listing-form';
import { useListingFormState } from '../../lib/listing-form-state';
import { uploadMultipart } from '../../lib/upload';

const REDIRECT_MS = 2000;

/**
 * The edit form's state and its save: checks the fields, sends them as a multipart PATCH with the kept and new
 * screenshots, says whether the change went back to review, and returns to the dashboard after 2 s (SPEC §2, §7).
 */
export function useEditListing(listing: ListingDto) {
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

  return { values, set, errors, formRef, status, setStatus, kept, setKept, added, setAdded, saving, progress, message, auction, locked, ownerStatus, onSubmit };
}
