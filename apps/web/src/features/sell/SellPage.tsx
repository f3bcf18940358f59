import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ListingDto } from '@market/contracts';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { announceSessionEnded, api } from '../../lib/api';
import {
  SELL_STEPS,
  SELL_STEP_COUNT,
  buildCreateFormData,
  emptyListingForm,
  firstStepWithError,
  listingErrorText,
  savePreLoginListing,
  takePreLoginListing,
  validateListing,
  validateListingFields,
} from '../../lib/listing-form';
import { useListingFormState } from '../../lib/listing-form-state';
import { uploadMultipart } from '../../lib/upload';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { BasicInfoStep } from './BasicInfoStep';
import { FinancialsStep } from './FinancialsStep';
import { PricingStep } from './PricingStep';
import { MediaStep } from './MediaStep';
import { ReviewStep } from './ReviewStep';
import { SellSuccess } from './SellSuccess';
import { GuestPrompt } from './GuestPrompt';
import { WizardProgress } from './WizardProgress';
import { useSellingFeeText } from '../../api/use-selling-fee-text';
import { useCommitRefusal } from '../../api/use-commit-refusal';
import { VerifyEmailNotice } from '../../components/account/VerifyEmailNotice';
import { useResendVerification } from '../../api/verification.api';
import './sell.css';
import { usePageMeta } from '../../lib/page-meta';

/** /sell: the five-step listing wizard; guests get step 1 and are asked to sign up (SPEC §2). */
export function SellPage() {
  usePageMeta({ title: 'Sell Your Website', description: 'List your website or online business for sale on Site Market: auction or fixed price.' });
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

  if (status === 'loading') {
    return (
      <div className="container section center" role="status">
        <div className="spinner" aria-hidden="true" />
        <p className="muted">Loading...</p>
      </div>
    );
  }

  if (created) {
    return (
      <div className="container section sell-page">
        <SellSuccess listing={created} onSellAnother={reset} />
      </div>
    );
  }

  if (!user && guestSaved) {
    return (
      <div className="container section sell-page">
        <GuestPrompt title={values.title} onBack={() => setGuestSaved(false)} />
      </div>
    );
  }

  const shownStep = user ? step : 1;
  const hasErrors = Object.values(errors).some(Boolean);
  return (
    <div className="container section sell-page">
      <h1>Sell Your Website</h1>
      <p className="muted">List your site in five short steps. Our team reviews every listing before it goes live.</p>
      {!user && (
        <div className="alert alert-warning" role="note">
          <strong>You need an account to list your website.</strong>
          <p>Start with the basics below; we keep them for you while you sign up or log in.</p>
        </div>
      )}
      {user && mustVerify && <VerifyEmailNotice reason={mustVerify} {...verification} />}
      <WizardProgress step={shownStep} />
      <form ref={formRef} className="card sell-card" onSubmit={onSubmit} noValidate>
        {hasErrors && (
          <div className="alert alert-error" role="alert">
            Please fix the highlighted fields.
          </div>
        )}
        {shownStep === 1 && <BasicInfoStep values={values} errors={errors} set={set} />}
        {shownStep === 2 && <FinancialsStep values={values} errors={errors} set={set} />}
        {shownStep === 3 && <PricingStep values={values} errors={errors} set={set} />}
        {shownStep === 4 && <MediaStep files={files} onChange={setFiles} />}
        {shownStep === 5 && <ReviewStep values={values} files={files} onEdit={(n) => setStep(n)} />}
        {shownStep === 5 && (
          <p className="muted" data-testid="selling-fee">
            {feeText}
          </p>
        )}
        {submitError && (
          <div className="alert alert-error" role="alert">
            {submitError}
          </div>
        )}
        {submitting && (
          <div className="upload-progress">
            <span>{files.length > 0 ? 'Uploading' : 'Submitting'}... {Math.round(progress * 100)}%</span>
            <div className="bar" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
              <div style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
          </div>
        )}
        <div className="sell-actions">
          {shownStep > 1 && (
            <button type="button" className="btn btn-ghost" onClick={() => setStep((n) => Math.max(1, n - 1))} disabled={submitting}>
              Previous
            </button>
          )}
          <span className="spacer" />
          {shownStep < SELL_STEP_COUNT ? (
            <button type="submit" className="btn btn-primary">
              {user ? 'Next' : 'Continue'}
            </button>
          ) : (
            <button type="submit" className="btn btn-primary" disabled={submitting}>
              {submitting ? 'Submitting...' : 'Submit for Review'}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
