import { useCallback, useEffect, useState, type ReactNode } from 'react';
import './feedback.css';

/** How long a toast stays before it closes itself. */
export const TOAST_MS = 8000;

/**
 * The result of an act, shown once at the corner of the page and announced to screen readers (a polite status, or an
 * alert for an error): the accessible stand-in for window.alert. A new one replaces the last; its button closes it.
 */
export function useToast(): { show: (text: string, tone?: 'success' | 'error') => void; toast: ReactNode } {
  const [current, setCurrent] = useState<{ text: string; tone: 'success' | 'error'; at: number } | null>(null);
  const show = useCallback((text: string, tone: 'success' | 'error' = 'success') => setCurrent({ text, tone, at: Date.now() }), []);
  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [current]);
  const toast = current && (
    <div className={`toast toast-${current.tone}`} role={current.tone === 'error' ? 'alert' : 'status'} data-testid="toast" key={current.at}>
      <span>{current.text}</span>
      <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => setCurrent(null)}>
        ×
      </button>
    </div>
  );
  return { show, toast };
}
