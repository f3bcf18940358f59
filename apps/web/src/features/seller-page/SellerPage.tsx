import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { SellerPageDto } from '@market/contracts';
import { useSellerPageQuery } from '../../api/reviews.api';
import { LoadingState } from '../../components/feedback/QueryState';
import { RENDERING_ON_SERVER } from '../../lib/api';
import { errorDetail } from '../../lib/error-detail';
import { readImpersonation } from '../../lib/impersonation';
import { usePageMeta } from '../../lib/page-meta';
import { useAppSelector } from '../../lib/store-hooks';
import { useInBrowser } from '../../lib/use-in-browser';
import { SellerListings } from './SellerListings';
import { SellerProfile } from './SellerProfile';
import { SellerReviews } from './SellerReviews';
import { isNotActive, NOT_ACTIVE_TEXT, reviewsPageOf, sellerPageMeta } from './seller-page';
import './seller-page.css';

/** A read of the seller page as the view shows it. */
export interface SellerPageResult {
  data?: SellerPageDto;
  error?: unknown;
  isLoading: boolean;
  refetch?: () => void;
}

function Centered({ children }: { children: React.ReactNode }) {
  return (
    <div className="container section">
      <div className="card center narrow">{children}</div>
    </div>
  );
}

/** The page for one read: loading, not active (404), unavailable, or the seller with reviews and listings. */
export function SellerPageView({ username, page, result }: { username: string; page: number; result: SellerPageResult }) {
  const user = useAppSelector((state) => state.session.user);
  // Storage is the browser's: read once the page is past hydration, so the first render matches the server's HTML.
  const impersonating = useInBrowser() && readImpersonation() !== null;
  const { data, error, isLoading } = result;
  const notActive = !data && !isLoading && Boolean(error) && isNotActive(error);
  usePageMeta(sellerPageMeta(username, page, data, notActive));

  if (isLoading) {
    return (
      <Centered>
        <LoadingState text="Loading seller..." />
      </Centered>
    );
  }
  if (!data) {
    return (
      <Centered>
        <h1 data-testid="seller-not-active">{notActive ? errorDetail(error, NOT_ACTIVE_TEXT) : 'This page could not be loaded'}</h1>
        {!notActive && <p className="muted">Please check your connection and try again.</p>}
        <div className="seller-missing-actions">
          {!notActive && result.refetch && (
            <button type="button" className="btn btn-secondary" onClick={() => result.refetch?.()}>
              Try again
            </button>
          )}
          <Link className="btn btn-primary" to="/browse">
            Browse listings
          </Link>
        </div>
      </Centered>
    );
  }
  // Hiding is for an admin as themselves: acting as a user, the API refuses it (ADR 0083), so it is not offered.
  const isAdmin = user?.role === 'admin' && !impersonating;
  return (
    <div className="container section seller-page">
      <SellerProfile seller={data.seller} />
      <div className="seller-page-layout">
        <SellerReviews data={data} isSeller={user?.id === data.seller.id} isAdmin={isAdmin} />
        <SellerListings listings={data.listings} count={data.listing_count} />
      </div>
    </div>
  );
}

/** /seller/{username} (ADR 0083): a seller's public page, rendered on the server like the other public pages. */
export function SellerPage() {
  const { username = '' } = useParams();
  const [params] = useSearchParams();
  const page = reviewsPageOf(params.get('page'));
  // The server's answer may be kept up to PAGE_CACHE_MS: the browser asks again on mount so a review just written shows.
  const result = useSellerPageQuery({ username, page }, { refetchOnMountOrArgChange: !RENDERING_ON_SERVER });
  return <SellerPageView username={username} page={page} result={result} />;
}
