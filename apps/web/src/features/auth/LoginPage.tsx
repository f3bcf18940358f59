import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { postLoginPath } from '@market/domain';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { errorDetail } from '../../lib/error-detail';
import { hasPreLoginListing } from '../../lib/storage-keys';
import { useLoginMutation } from './auth.api';
import { loggedIn } from '../../session/session.slice';
import { ForgotPasswordModal } from './ForgotPasswordModal';
import { TextField } from '../../components/form/TextField';
import { api } from '../../lib/api';
import { usePageMeta } from '../../lib/page-meta';

type Field = 'login' | 'password';

/** /login: username or email and password; then /sell, /dashboard (admins) or / (SPEC §2). */
export function LoginPage() {
  usePageMeta({ title: 'Log In', description: 'Log in to Site Market to bid, buy and sell websites.' });
  const user = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [submitLogin, { isLoading }] = useLoginMutation();
  const [forgotOpen, setForgotOpen] = useState(false);
  const [params] = useSearchParams();
  const returningAdmin = params.get('returning_admin') === 'true';

  if (user) return <Navigate to={postLoginPath(user.role, hasPreLoginListing())} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: Partial<Record<Field, string>> = {};
    if (!login.trim()) errors.login = 'Username or email is required';
    if (!password) errors.password = 'Password is required';
    setFieldErrors(errors);
    setError(null);
    if (Object.keys(errors).length > 0) return;
    try {
      const result = await submitLogin({ login: login.trim(), password }).unwrap();
      // Nothing cached for a previous user may show to this one.
      dispatch(api.util.resetApiState());
      dispatch(loggedIn({ token: result.access_token, user: result.user }));
      navigate(postLoginPath(result.user.role, hasPreLoginListing()), { replace: true });
    } catch (failure) {
      setError(errorDetail(failure, 'Login failed'));
    }
  };

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>Welcome back</h1>
        <p className="muted">Log in to bid, buy and manage your listings.</p>
        {returningAdmin && (
          <div className="alert alert-info" role="status">
            Your admin session has ended. Please log in again to return to the admin dashboard.
          </div>
        )}
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        <form onSubmit={onSubmit} noValidate>
          <TextField label="Username or email" name="login" autoComplete="username" value={login} onChange={setLogin} error={fieldErrors.login} />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={fieldErrors.password}
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
            {isLoading ? 'Logging in...' : 'Log In'}
          </button>
        </form>
        <button type="button" className="link-button" onClick={() => setForgotOpen(true)}>
          Forgot password?
        </button>
        {forgotOpen && <ForgotPasswordModal onClose={() => setForgotOpen(false)} />}
        <p className="auth-switch">
          Don&apos;t have an account? <Link to="/register">Sign up</Link>
        </p>
      </div>
    </div>
  );
}
