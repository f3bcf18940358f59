import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { FORGOT_PASSWORD_MESSAGE } from '@market/contracts';
import { errorDetail } from '../../lib/error-detail';
import { useForgotPasswordMutation } from './auth.api';

const EmailSchema = z.email();

/** The forgot-password dialog on /login: always the same answer, whether or not the account exists (SPEC §8). */
export function ForgotPasswordModal({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [forgot, { isLoading }] = useForgotPasswordMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setError('Email is required');
    if (!EmailSchema.safeParse(email.trim()).success) return setError('Please enter a valid email address');
    setError(null);
    try {
      await forgot({ email: email.trim() }).unwrap();
      setSent(true);
    } catch (failure) {
      // Rate limits and outages still say so; nothing reveals whether the account exists.
      setError(errorDetail(failure, 'Something went wrong. Please try again.'));
    }
  };

  return (
    <div className="modal-backdrop" role="presentation" onClick={onClose}>
      <div className="modal card" role="dialog" aria-modal="true" aria-labelledby="forgot-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="forgot-title">Reset your password</h2>
        {sent ? (
          <div className="alert alert-success" role="status">
            {FORGOT_PASSWORD_MESSAGE}
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <p className="muted">Enter the email of your account and we will send you a link to choose a new password.</p>
            {error && (
              <div className="alert alert-error" role="alert">
                {error}
              </div>
            )}
            <label className="field">
              <span>Email</span>
              <input name="forgot_email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
            </label>
            <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
              {isLoading ? 'Sending...' : 'Send Reset Link'}
            </button>
          </form>
        )}
        <button type="button" className="btn btn-ghost btn-block modal-close" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
