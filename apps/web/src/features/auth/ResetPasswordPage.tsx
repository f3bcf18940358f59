import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PASSWORD_MIN } from '@market/domain';
import { useResetPasswordMutation } from './auth.api';
import { TextField } from '../../components/form/TextField';
import { usePageMeta } from '../../lib/page-meta';

const REDIRECT_MS = 3000;

/** /reset-password?token=: choose a new password; back to /login 3 s after success (SPEC §2, §5, §8). */
export function ResetPasswordPage() {
  usePageMeta({ title: 'Reset your password' });
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [reset, { isLoading }] = useResetPasswordMutation();

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login'), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  if (!token) {
    return (
      <div className="auth-page">
        <div className="card auth-card center">
          <h1>Invalid Reset Link</h1>
          <div className="alert alert-error" role="alert">
            Invalid reset link. Please request a new password reset.
          </div>
          <Link to="/login">Back to login</Link>
        </div>
      </div>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) return setError('Passwords do not match');
    if (password.length < PASSWORD_MIN) return setError('Password must be at least 8 characters long');
    setError(null);
    try {
      const result = await reset({ token, new_password: password }).unwrap();
      setDone(result.message);
    } catch (failure) {
      const detail = (failure as { status?: number; data?: { detail?: unknown } }).data?.detail;
      // A rule the password broke (422) is worth showing; anything else is the link's fault.
      setError(Array.isArray(detail) ? String(detail[0]?.msg ?? '') || 'Failed to reset password. The link may have expired.' : 'Failed to reset password. The link may have expired.');
    }
  };

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>Choose a new password</h1>
        {done ? (
          <div className="alert alert-success" role="status">
            {done} Redirecting to login...
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            {error && (
              <div className="alert alert-error" role="alert">
                {error}
              </div>
            )}
            <TextField label="New password" name="new_password" type="password" autoComplete="new-password" value={password} onChange={setPassword} />
            <TextField label="Confirm new password" name="confirm_password" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} />
            <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
              {isLoading ? 'Resetting...' : 'Reset Password'}
            </button>
          </form>
        )}
        <p className="auth-switch">
          <Link to="/login">Back to login</Link>
        </p>
      </div>
    </div>
  );
}
