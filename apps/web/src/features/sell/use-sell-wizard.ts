import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ListingDto } from '@market/contracts';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { announceSessionEnded, api } from '../../lib/api';
import { SELL_STEPS, SELL_STEP_COUNT, buildCreateFormData, emptyListingForm, firstStepWithError, listingErrorText, savePreLoginListing, takePreLoginListing, validateListing, validateListingFields } from '../../lib/listing-form';
import { useListingFormState } from '../../lib/listing-form-state';
import { uploadMultipart } from '../../lib/upload';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { useSellingFeeText } from '../../api/use-selling-fee-text';
import { useCommitRefusal } from '../../api/use-commit-refusal';
import { useResendVerification } from '../../api/verification.api';

/**
 * The state of the /sell wizard (SPEC §2): the form and its step, a guest's draft kept until they sign in, and the
 * submit with its upload progress, idempotency key and outcome. SellPage shows it.
 */
export function useSellWizard() {
  const { user, status } = useAppSelector((state) => state.session);
  const dispatch = useAppDispatch();
  const verification = useResendVerification();
  const { values, setValues, set, errors, setErrors, formRef, focusFirstInvalid } = useListingFormState(emptyListingForm);
  const [step, setStep] = useState(1);
  const [files, setFiles] = useState<File[]>([]);
  const [guestSaved, setGuestSaved] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const feeText = useSellingFeeText();
  // Listing needs a verified email (ADR 0037): said at the top, so the seller can verify while filling the steps.
  const mustVerify = useCommitRefusal('list');
  const [progress, setProgress] = useState(0);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [created, setCreated] = useState<ListingDto | null>(null);
  const submitKey = useRef<string | null>(null);

  // Back from login with a guest's step 1: restore it and carry on at step 2.
  useEffect(() => {
    if (!user) return;
    const saved = takePreLoginListing();
    if (!saved) return;
    setValues((current) => ({ ...current, ...saved }));
    setGuestSaved(false);
    setStep(2);
  }, [user, setValues]);

  useEffect(() => {
    // Each step starts at the top of the page (the sticky header would hide a scrolled-to card's top).
    window.scrollTo?.(0, 0);
  }, [step, guestSaved, created]);

  const checkStep = (n: number) => {
    const found = validateListingFields(values, SELL_STEPS[n - 1].fields);
    setErrors(found);
    const ok = Object.keys(found).length === 0;
    if (!ok) focusFirstInvalid();
    return ok;
  };

  const next = () => {
    if (!checkStep(step)) return;
    if (!user) {
      savePreLoginListing(values);
      setGuestSaved(true);
      return;
    }
    setStep((n) => Math.min(SELL_STEP_COUNT, n + 1));
  };

  const reset = () => {
    setValues(emptyListingForm());
    setErrors({});
    setFiles([]);
    setStep(1);
    setCreated(null);
    setSubmitError(null);
    setProgress(0);
  };

  const submit = async () => {
    const found = validateListing(values);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setStep(firstStepWithError(found) ?? 1);
      focusFirstInvalid();
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    setProgress(0);
    // Submitting again after no answer (a dropped connection) or while the first still runs (409) is the same action:
    // the same key cannot list twice (ADR 0047).
    submitKey.current ??= newIdempotencyKey();
    const result = await uploadMultipart({
      method: 'POST',
      path: '/listings',
      body: buildCreateFormData(values, files),
      onProgress: setProgress,
      onSessionEnded: () => announceSessionEnded(dispatch),
      idempotencyKey: submitKey.current,
    });
    setSubmitting(false);
    if (result.status !== 0 && result.status !== 409) submitKey.current = null;
    if (result.ok) {
      dispatch(api.util.invalidateTags(['MyListings', 'Listings', 'AdminListings']));
      setCreated(result.body as ListingDto);
      return;
    }
    setSubmitError(listingErrorText(result.body, 'Error creating listing'));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step < SELL_STEP_COUNT) next();
    else void submit();
  };

  return { created, errors, feeText, files, formRef, guestSaved, mustVerify, onSubmit, progress, reset, set, setFiles, setGuestSaved, setStep, status, step, submitError, submitting, user, values, verification };
}
