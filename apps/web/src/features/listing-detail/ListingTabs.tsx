import { useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ListingDto } from '@market/contracts';
import { formatBusinessAge, formatDollars, formatTraffic, monthlyProfit } from '@market/domain';
import { FactList } from './FactList';

const TABS = ['Overview', 'Financials', 'Traffic & SEO', 'Details'] as const;
type Tab = (typeof TABS)[number];

const tabId = (tab: Tab) => `listing-tab-${TABS.indexOf(tab)}`;
const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

const Facts = ({ rows }: { rows: Array<[string, ReactNode]> }) => <FactList rows={rows} className="facts" />;

function TextBlock({ heading, text, empty }: { heading: string; text: string | null; empty: string }) {
  return (
    <section className="tab-block">
      <h3>{heading}</h3>
      {text ? <p className="prose">{text}</p> : <p className="muted">{empty}</p>}
    </section>
  );
}

function panel(tab: Tab, listing: ListingDto): ReactNode {
  const profit = monthlyProfit(listing.monthly_revenue, listing.monthly_expenses);
  switch (tab) {
    case 'Overview':
      return (
        <>
          <TextBlock heading="Description" text={listing.description} empty="No description." />
          <TextBlock heading="Key metrics" text={listing.key_metrics} empty="The seller has not added key metrics." />
          <TextBlock heading="Growth opportunities" text={listing.growth_opportunities} empty="The seller has not described growth opportunities." />
        </>
      );
    case 'Financials':
      return (
        <>
          <Facts
            rows={[
              ['Monthly revenue', formatDollars(listing.monthly_revenue)],
              ['Annual revenue', formatDollars(listing.annual_revenue)],
              ['Monthly expenses', formatDollars(listing.monthly_expenses)],
              ['Monthly profit', formatDollars(profit)],
              ['Profit margin', `${listing.profit_margin}%`],
            ]}
          />
          <section className="tab-block">
            <h3>Monetization methods</h3>
            {listing.monetization_methods.length > 0 ? (
              <ul className="chips">
                {listing.monetization_methods.map((method) => (
                  <li key={method} className="badge badge-blue">
                    {method}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">Not specified.</p>
            )}
          </section>
        </>
      );
    case 'Traffic & SEO':
      return (
        <Facts
          rows={[
            ['Monthly traffic', `${formatTraffic(listing.monthly_traffic)} visits`],
            ['Business age', formatBusinessAge(listing.business_age_months)],
            [
              'Website',
              <a key="url" href={listing.website_url} target="_blank" rel="noopener noreferrer nofollow" className="break">
                {listing.website_url}
              </a>,
            ],
          ]}
        />
      );
    case 'Details':
      return (
        <>
          <Facts
            rows={[
              ['Listing type', listing.listing_type === 'auction' ? 'Auction' : 'Fixed price'],
              ...(listing.listing_type === 'auction'
                ? ([['Auction type', listing.auction_type === 'auto' ? 'Automatic (highest bid wins)' : 'Manual (seller selects)']] as Array<[string, ReactNode]>)
                : []),
              ['Duration', `${listing.duration_days} days`],
              ['Listed', formatDate(listing.approved_at ?? listing.created_at)],
              ...(listing.expires_at ? ([['Ends', formatDate(listing.expires_at)]] as Array<[string, ReactNode]>) : []),
            ]}
          />
          <TextBlock heading="Included assets" text={listing.included_assets} empty="Not specified." />
          <TextBlock heading="Reason for selling" text={listing.reason_for_selling} empty="Not specified." />
        </>
      );
  }
}

/** The four tabs of the listing page (SPEC §2), as an ARIA tab list with arrow-key navigation. */
export function ListingTabs({ listing }: { listing: ListingDto }) {
  const [active, setActive] = useState<Tab>('Overview');
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.indexOf(active);
    const next =
      event.key === 'ArrowRight' ? (index + 1) % TABS.length
      : event.key === 'ArrowLeft' ? (index - 1 + TABS.length) % TABS.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? TABS.length - 1
      : -1;
    if (next < 0) return;
    event.preventDefault();
    setActive(TABS[next]);
    document.getElementById(tabId(TABS[next]))?.focus();
  };
  return (
    <section className="card listing-tabs">
      <div className="tab-list" role="tablist" aria-label="Listing information" onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button
            key={tab}
            id={tabId(tab)}
            type="button"
            role="tab"
            aria-selected={tab === active}
            aria-controls="listing-tab-panel"
            tabIndex={tab === active ? 0 : -1}
            onClick={() => setActive(tab)}
          >
            {tab}
          </button>
        ))}
      </div>
      <div id="listing-tab-panel" role="tabpanel" aria-labelledby={tabId(active)} className="tab-panel">
        {panel(active, listing)}
      </div>
    </section>
  );
}
