import { SELL_STEP_COUNT } from '../../lib/listing-form';
import { BasicInfoStep } from './BasicInfoStep';
import { FinancialsStep } from './FinancialsStep';
import { PricingStep } from './PricingStep';
import { MediaStep } from './MediaStep';
import { ReviewStep } from './ReviewStep';
import { SellSuccess } from './SellSuccess';
import { GuestPrompt } from './GuestPrompt';
import { WizardProgress } from './WizardProgress';
import { VerifyEmailNotice } from '../../components/account/VerifyEmailNotice';
import { usePageMeta } from '../../lib/page-meta';
import { useSellWizard } from './use-sell-wizard';
import './sell.css';

/** /sell: the five-step listing wizard; guests get step 1 and are asked to sign up (SPEC §2). */
export function SellPage() {
  usePageMeta({ title: 'Sell Your Website', description: 'List your website or online business for sale on Site Market: auction or fixed price.' });
  const { created, errors, feeText, files, formRef, guestSaved, mustVerify, onSubmit, progress, reset, set, setFiles, setGuestSaved, setStep, status, step, submitError, submitting, user, values, verification } = useSellWizard();

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
