import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { RegisterRequestSchema } from '@market/contracts';
import { useAppSelector } from '../../lib/store-hooks';
import { errorDetail } from '../../lib/error-detail';
import { useRegisterMutation } from './auth.api';
import { TextField } from '../../components/form/TextField';
import { usePageMeta } from '../../lib/page-meta';

const REDIRECT_SECONDS = 8;
type Field = 'username' | 'email' | 'password' | 'age_confirmed';

/** /register: username, email, password and the 18+ confirmation; success counts down to /login (SPEC §2). */
export function RegisterPage() {
  usePageMeta({ title: 'Create your account', description: 'Join Site Market to buy and sell websites and online businesses.' });
  const user = useAppSelector((state) => state.session.user);
  const [form, setForm] = useState({ username: '', email: '', password: '', age_confirmed: false });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [register, { isLoading }] = useRegisterMutation();

  if (user && !success) return <Navigate to="/" replace />;
  if (success) return <RegisterSuccess message={success} />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const parsed = RegisterRequestSchema.safeParse(form);
    if (!parsed.success) {
      const errors: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        errors[field] ??= issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    try {
      const result = await register(parsed.data).unwrap();
      setSuccess(result.message);
    } catch (failure) {
      setError(errorDetail(failure, 'Registration failed'));
    }
  };

  const text = (field: Exclude<Field, 'age_confirmed'>, label: string, type: string, autoComplete: string) => (
    <TextField
      label={label}
      name={field}
      type={type}
      autoComplete={autoComplete}
      value={form[field]}
      onChange={(value) => setForm({ ...form, [field]: value })}
      error={fieldErrors[field]}
    />
  );

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>Create your account</h1>
        <p className="muted">One account to buy and to sell.</p>
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        <form onSubmit={onSubmit} noValidate>
          {text('username', 'Username', 'text', 'username')}
          {text('email', 'Email', 'email', 'email')}
          {text('password', 'Password', 'password', 'new-password')}
          <p className="field-hint">At least 8 characters; common passwords are refused.</p>
          <label className="checkbox">
            <input
              name="age_confirmed"
              type="checkbox"
              checked={form.age_confirmed}
              onChange={(e) => setForm({ ...form, age_confirmed: e.target.checked })}
            />
            <span>I am 18 or older</span>
          </label>
          {fieldErrors.age_confirmed && <small className="field-error">{fieldErrors.age_confirmed}</small>}
          <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
            {isLoading ? 'Creating account...' : 'Create Account'}
          </button>
        </form>
        <p className="auth-switch">
          Already have an account? <Link to="/login">Log in</Link>
        </p>
      </div>
    </div>
  );
}

function RegisterSuccess({ message }: { message: string }) {
  const navigate = useNavigate();
  const [seconds, setSeconds] = useState(REDIRECT_SECONDS);

  useEffect(() => {
    if (seconds <= 0) {
      navigate('/login');
      return;
    }
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds, navigate]);

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <div className="alert alert-success" role="status">
          <strong>Account created</strong>
          <p>{message}</p>
        </div>
        <button type="button" className="btn btn-primary btn-block" onClick={() => navigate('/login')}>
          Continue to Login
        </button>
        <p className="muted center" data-testid="register-countdown">
          Redirecting to login in {seconds} second{seconds === 1 ? '' : 's'}...
        </p>
      </div>
    </div>
  );
}
