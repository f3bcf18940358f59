import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useVerifyEmailMutation } from './auth.api';
import { usePageMeta } from '../../lib/page-meta';

const REDIRECT_SECONDS = 5;
type State = { kind: 'verifying' } | { kind: 'success'; message: string } | { kind: 'error'; message: string };

/** /verify-email?token=: verifying, then success (to /login after 5 s) or error (SPEC §2, §5, §8). */
export function VerifyEmailPage() {
  usePageMeta({ title: 'Email verification' });
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [verify] = useVerifyEmailMutation();
  const [state, setState] = useState<State>(
    token ? { kind: 'verifying' } : { kind: 'error', message: 'No verification token provided. Please check your email link.' },
  );
  const sent = useRef(false);

  useEffect(() => {
    // One request per token, even when React runs effects twice in development.
    if (!token || sent.current) return;
    sent.current = true;
    verify(token)
      .unwrap()
      .then((result) => setState({ kind: 'success', message: result.message }))
      .catch(() => setState({ kind: 'error', message: 'Email verification failed. The link may have expired.' }));
  }, [token, verify]);

  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = setTimeout(() => navigate('/login'), REDIRECT_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [state.kind, navigate]);

  return (
    <div className="auth-page">
      <div className="card auth-card center">
        <h1>Email verification</h1>
        {state.kind === 'verifying' && (
          <div role="status">
            <div className="spinner" aria-hidden="true" />
            <p className="muted">Verifying your email...</p>
          </div>
        )}
        {state.kind === 'success' && (
          <>
            <div className="alert alert-success" role="status">
              {state.message}
            </div>
            <p className="muted">Redirecting to login in {REDIRECT_SECONDS} seconds...</p>
            <Link className="btn btn-primary" to="/login">
              Go to Login
            </Link>
          </>
        )}
        {state.kind === 'error' && (
          <>
            <div className="alert alert-error" role="alert">
              {state.message}
            </div>
            <p>
              <Link to="/register">Create an account</Link> · <Link to="/login">Log in</Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
