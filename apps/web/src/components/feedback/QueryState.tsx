import type { ReactNode } from 'react';
import './feedback.css';

/** The spinner block a list shows while its first load runs. */
export function LoadingState({ text }: { text: string }) {
  return (
    <div className="center" role="status">
      <div className="spinner" aria-hidden="true" />
      <p className="muted">{text}</p>
    </div>
  );
}

/** A failed load: the message, then a "Try again" link when the list can reload. */
export function LoadError({ children, onRetry }: { children: ReactNode; onRetry?: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      {children}
      {onRetry && (
        <>
          {' '}
          <button type="button" className="link-button inline-link" onClick={onRetry}>
            Try again
          </button>
        </>
      )}
    </div>
  );
}

/** The card a list shows when it has nothing, with what to do next. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="card center empty-state">{children}</div>;
}
