import { useRef } from 'react';
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
import { WatchlistTab } from '../features/watchlist/WatchlistTab';
import { SavedSearchesTab } from '../features/saved-searches/SavedSearchesTab';
import { MessagesTab } from '../features/messages/MessagesTab';
import { MessagesTabLabel } from '../features/messages/MessagesTabLabel';
import { usePageMeta } from '../lib/page-meta';
import { useActiveTabInView } from '../lib/use-active-tab-in-view';
import { UserOverview } from './UserOverview';

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
  { id: 'saved-searches', label: 'Saved searches', render: () => <SavedSearchesTab /> },
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

/** /dashboard?tab=: requires login; admins get the admin tabs (SPEC §2). */
export function DashboardPage() {
  usePageMeta({ title: 'Dashboard' });
  const { user, status } = useAppSelector((state) => state.session);
  const [params] = useSearchParams();
  const tabBar = useRef<HTMLElement>(null);
  const tabs = user?.role === 'admin' ? ADMIN_TABS : USER_TABS;
  const active = tabs.find((tab) => tab.id === params.get('tab')) ?? tabs[0];
  const showsTabs = user !== null && status !== 'loading';

  useActiveTabInView(tabBar, showsTabs, `${tabs === ADMIN_TABS ? 'admin' : 'member'}:${active.id}`);

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
