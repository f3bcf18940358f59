import { useLayoutEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { UserDto } from '@market/contracts';
import { useAppSelector } from '../lib/store-hooks';
import { ProfileTab } from '../features/profile/ProfileTab';
import { AdminOverviewTab } from '../features/admin/AdminOverviewTab';
import { AdminUsersTab } from '../features/admin/AdminUsersTab';
import { AdminSettingsTab } from '../features/admin/AdminSettingsTab';
import { AdminListingsTab } from '../features/admin/AdminListingsTab';
import { AdminTransactionsTab } from '../features/admin/AdminTransactionsTab';
import { AdminAnalyticsTab } from '../features/admin/AdminAnalyticsTab';
import { AdminPaymentsTab } from '../features/admin/AdminPaymentsTab';
import { AdminAuditTab } from '../features/admin/AdminAuditTab';
import { AdminLedgerTab } from '../features/admin/AdminLedgerTab';
import { InvoicesTab } from '../features/invoices/InvoicesTab';
import { PayoutsTab } from '../features/payouts/PayoutsTab';
import { MyBidsTab } from '../features/my-bids/MyBidsTab';
import { MyListingsTab } from '../features/my-listings/MyListingsTab';
import { RecentListings } from '../features/my-listings/RecentListings';
import { WatchlistTab } from '../features/watchlist/WatchlistTab';
import { MessagesTab } from '../features/messages/MessagesTab';
import { MessagesTabLabel } from '../features/messages/MessagesTabLabel';
import { usePageMeta } from '../lib/page-meta';

interface Tab {
  id: string;
  label: string;
  /** What the tab bar shows, when more than the label (Messages' unread badge). */
  title?: () => React.ReactNode;
  render: (user: UserDto) => React.ReactNode;
}

// Tabs in SPEC §2 order; Payouts and Ledger (D22) beside the invoices and payments they follow.
const USER_TABS: Tab[] = [
  { id: 'overview', label: 'Overview', render: (user) => <UserOverview user={user} /> },
  { id: 'listings', label: 'My Listings', render: () => <MyListingsTab /> },
  { id: 'bids', label: 'My Bids', render: () => <MyBidsTab /> },
  { id: 'invoices', label: 'Invoices', render: () => <InvoicesTab /> },
  { id: 'payouts', label: 'Payouts', render: () => <PayoutsTab /> },
  { id: 'watchlist', label: 'Watchlist', render: () => <WatchlistTab /> },
  { id: 'messages', label: 'Messages', title: () => <MessagesTabLabel />, render: () => <MessagesTab /> },
  { id: 'profile', label: 'Profile', render: (user) => <ProfileTab user={user} /> },
];
const ADMIN_TABS: Tab[] = [
  { id: 'overview', label: 'Overview', render: () => <AdminOverviewTab /> },
  { id: 'users', label: 'Users', render: () => <AdminUsersTab /> },
  { id: 'listings', label: 'Listings', render: () => <AdminListingsTab /> },
  { id: 'transactions', label: 'Transactions', render: () => <AdminTransactionsTab /> },
  { id: 'payments', label: 'Payments', render: () => <AdminPaymentsTab /> },
  { id: 'ledger', label: 'Ledger', render: () => <AdminLedgerTab /> },
  { id: 'analytics', label: 'Analytics', render: () => <AdminAnalyticsTab /> },
  { id: 'settings', label: 'Settings', render: () => <AdminSettingsTab /> },
  { id: 'audit', label: 'Audit', render: () => <AdminAuditTab /> },
  { id: 'profile', label: 'Profile', render: (user) => <ProfileTab user={user} /> },
];

/**
 * Scrolls the tab bar sideways just enough to show its active tab (inline 'nearest'), e.g. Invoices at 375 px reached
 * from a link. Only the bar moves: scrollIntoView would also scroll the page, which a tab may have scrolled itself
 * (to a highlighted invoice). A bar that fits (desktop) does not move.
 */
function revealActiveTab(bar: HTMLElement): void {
  const tab = bar.querySelector<HTMLElement>('[aria-current="page"]');
  if (!tab) return;
  const barBox = bar.getBoundingClientRect();
  const tabBox = tab.getBoundingClientRect();
  if (tabBox.left < barBox.left) bar.scrollLeft -= barBox.left - tabBox.left;
  else if (tabBox.right > barBox.right) bar.scrollLeft += Math.min(tabBox.right - barBox.right, tabBox.left - barBox.left);
}

/** /dashboard?tab=: requires login; admins get the admin tabs (SPEC §2). */
export function DashboardPage() {
  usePageMeta({ title: 'Dashboard' });
  const { user, status } = useAppSelector((state) => state.session);
  const [params] = useSearchParams();
  const tabBar = useRef<HTMLElement>(null);
  const tabs = user?.role === 'admin' ? ADMIN_TABS : USER_TABS;
  const active = tabs.find((tab) => tab.id === params.get('tab')) ?? tabs[0];
  const showsTabs = user !== null && status !== 'loading';

  // Before paint, so the bar never shows the wrong part first; again whenever the bar narrows or widens (a turned
  // phone, a resized window), which can push the active tab out of it.
  useLayoutEffect(() => {
    const bar = tabBar.current;
    if (!showsTabs || !bar) return;
    revealActiveTab(bar);
    if (typeof ResizeObserver === 'undefined') return;
    let width = bar.clientWidth;
    let tabWidth = 0;
    const tab = bar.querySelector<HTMLElement>('[aria-current="page"]');
    // Also when the active tab itself grows (the Messages badge arrives after the first paint).
    const observer = new ResizeObserver(() => {
      const tabNow = tab?.offsetWidth ?? 0;
      if (bar.clientWidth === width && tabNow === tabWidth) return;
      width = bar.clientWidth;
      tabWidth = tabNow;
      revealActiveTab(bar);
    });
    tabWidth = tab?.offsetWidth ?? 0;
    observer.observe(bar);
    if (tab) observer.observe(tab);
    return () => observer.disconnect();
  }, [tabs, active.id, showsTabs]);

  if (status === 'loading') {
    return (
      <div className="container section center" role="status">
        <div className="spinner" aria-hidden="true" />
        <p className="muted">Loading your dashboard...</p>
      </div>
    );
  }
  if (!user) {
    return (
      <div className="container section">
        <div className="card center narrow">
          <h1>Dashboard</h1>
          <p>Please log in to view your dashboard.</p>
          <Link className="btn btn-primary" to="/login">
            Log In
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="container section">
      <h1>{user.role === 'admin' ? 'Admin Dashboard' : 'Dashboard'}</h1>
      <p className="muted">
        Signed in as <strong>{user.username}</strong> ({user.email}){user.role === 'admin' ? ' · Administrator' : ''}
      </p>
      <nav className="tabs" aria-label="Dashboard sections" ref={tabBar}>
        {tabs.map((tab) => (
          <Link key={tab.id} to={`/dashboard?tab=${tab.id}`} aria-current={tab.id === active.id ? 'page' : undefined}>
            {tab.title ? tab.title() : tab.label}
          </Link>
        ))}
      </nav>
      {active.render(user)}
    </div>
  );
}

function UserOverview({ user }: { user: UserDto }) {
  return (
    <>
      {!user.email_verified && (
        <div className="alert alert-warning" role="status">
          Please verify your email address. <Link to="/dashboard?tab=profile">Resend the link from your profile.</Link>
        </div>
      )}
      <div className="quick-actions">
        <Link className="card quick-action" to="/sell">
          <strong>Sell a website</strong>
          <span className="muted">List your site for auction or at a fixed price.</span>
        </Link>
        <Link className="card quick-action" to="/dashboard?tab=watchlist">
          <strong>Watchlist</strong>
          <span className="muted">Listings you are keeping an eye on.</span>
        </Link>
        <Link className="card quick-action" to="/browse">
          <strong>Browse listings</strong>
          <span className="muted">Find your next online business.</span>
        </Link>
      </div>
      <RecentListings />
    </>
  );
}
