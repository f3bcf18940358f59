import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * False while the page renders on the server and while the browser hydrates that HTML, true after (and at once in a
 * page rendered only in the browser). What only the browser knows (storage, a remembered view) is read once this is
 * true, so the first browser render matches the server's HTML (ADR 0072).
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
