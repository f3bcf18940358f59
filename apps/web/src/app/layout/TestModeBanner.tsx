import { useSiteQuery } from '../../api/site.api';

/** The banner's words: the sandbox moves no real money (ADR 0033). */
export const TEST_MODE_BANNER_TEXT = 'Payments on this site go through a sandbox: no real money moves.';

/**
 * Every page's banner while the sandbox runs the payments (ADR 0033); nothing while the answer is unknown or real. First
 * in the page for screen readers, pinned to the bottom of the screen so its late arrival moves nothing (CLS, ADR 0025).
 */
export function TestModeBanner() {
  const { data } = useSiteQuery();
  if (!data?.payments.test_mode) return null;
  return (
    <div className="test-mode-banner" role="note" aria-label="Test mode" data-testid="test-mode-banner">
      <div className="container">
        <strong className="test-mode-badge">TEST MODE</strong>
        <span>{TEST_MODE_BANNER_TEXT}</span>
      </div>
    </div>
  );
}
