import type { ReactNode } from 'react';
import type { ListingVerificationDto, VerifiedRevenueDto, VerifiedTrafficDto } from '@market/contracts';
import { chargesDescribedAs } from '../../components/listing/figure-badges';
import { formatCents } from '../../lib/money';
import { FactList } from './FactList';
import { MonthlyBars } from './MonthlyBars';
import {
  compactNumber,
  figureStatus,
  formatCount,
  hasVerifiedFigures,
  revenueClaimWarning,
  trafficClaimWarning,
  type FigureKind,
} from './verified-figures';
import './verified-figures.css';

const TEST_MODE_TITLE = "These figures came from the provider's test stand-in, not from a real account";

/** The heading line of one figure: its name, the badge when current, TEST MODE, and when it was verified. */
function FigureHead({ kind, heading, figure, extra }: { kind: FigureKind; heading: string; figure: VerifiedRevenueDto | VerifiedTrafficDto; extra?: string | null }) {
  const status = figureStatus(kind, figure);
  return (
    <>
      <div className="verified-figure-head">
        <h3 id={`verified-${kind}-title`}>{heading}</h3>
        {status.badge && (
          <span className="badge badge-verified" data-testid={`verified-${kind}-badge`}>
            <span aria-hidden="true">✓ </span>
            {status.badge}
          </span>
        )}
        {figure.test_mode && (
          <span className="badge badge-test-mode" title={TEST_MODE_TITLE}>
            TEST MODE
          </span>
        )}
      </div>
      <p className={`verified-figure-when${status.badge ? '' : ' verified-figure-old'}`} data-testid={`verified-${kind}-when`}>
        {status.note}
        {extra ? ` · ${extra}` : ''}
      </p>
    </>
  );
}

/** The claim warning, when the seller's figure is more than 15% above the verified one (D24). */
function ClaimWarning({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="alert alert-warning verified-warning" role="note" data-testid="claim-warning">
      <strong>Claim above the verified figure.</strong> {text}.
    </p>
  );
}

const Compare = ({ rows }: { rows: Array<[string, ReactNode]> }) => <FactList rows={rows} className="verified-compare" />;

/** Verified revenue (Stripe): the monthly average beside the claim, and the 12 months. */
export function VerifiedRevenue({ figure }: { figure: VerifiedRevenueDto }) {
  // ADR 0084: the statement descriptor of the newest charge, which the seller may set per charge: not the account's name.
  const account = figure.account_label ? chargesDescribedAs(figure.account_label) : null;
  return (
    <section className="verified-figure" aria-labelledby="verified-revenue-title" data-testid="verified-revenue">
      <FigureHead kind="revenue" heading="Revenue" figure={figure} extra={account} />
      <ClaimWarning text={revenueClaimWarning(figure)} />
      <Compare
        rows={[
          ['Verified monthly average', figure.monthly_average_cents === null ? 'No revenue in these 12 months' : `${formatCents(figure.monthly_average_cents)}/mo`],
          ['Seller’s claim', `${formatCents(figure.claimed_cents)}/mo`],
        ]}
      />
      <MonthlyBars
        title="Net revenue per month (USD), last 12 complete months"
        months={figure.months.map((m) => m.month)}
        series={[{ name: 'Net revenue', tone: 0, values: figure.months.map((m) => m.cents) }]}
        format={formatCents}
        axis={(cents) => `$${compactNumber(cents / 100)}`}
      />
      <p className="verified-figure-note muted">
        Succeeded charges in US dollars less refunds, by the month they were made; the average starts at the first month with revenue.
        {figure.other_currency_charges > 0 &&
          ` ${formatCount(figure.other_currency_charges)} ${figure.other_currency_charges === 1 ? 'charge' : 'charges'} in other currencies ${figure.other_currency_charges === 1 ? 'is' : 'are'} not counted.`}
      </p>
    </section>
  );
}

/** Verified traffic (Google Analytics 4): monthly sessions and users beside the claim, and the 12 months. */
export function VerifiedTraffic({ figure }: { figure: VerifiedTrafficDto }) {
  const perMonth = (value: number | null) => (value === null ? 'None in these 12 months' : `${formatCount(value)}/mo`);
  return (
    <section className="verified-figure" aria-labelledby="verified-traffic-title" data-testid="verified-traffic">
      <FigureHead kind="traffic" heading="Traffic" figure={figure} extra={`GA4 property ${figure.property_id}`} />
      <ClaimWarning text={trafficClaimWarning(figure)} />
      <Compare
        rows={[
          ['Verified sessions', perMonth(figure.monthly_average_sessions)],
          ['Verified users', perMonth(figure.monthly_average_users)],
          ['Seller’s claim', `${formatCount(figure.claimed)} visits/mo`],
        ]}
      />
      <MonthlyBars
        title="Sessions and users per month, last 12 complete months"
        months={figure.months.map((m) => m.month)}
        series={[
          { name: 'Sessions', tone: 0, values: figure.months.map((m) => m.sessions) },
          { name: 'Users', tone: 1, values: figure.months.map((m) => m.users) },
        ]}
        format={formatCount}
        axis={compactNumber}
      />
      <p className="verified-figure-note muted">The claim is compared with sessions; the average starts at the first month with any.</p>
    </section>
  );
}

/**
 * "Verified figures" on the listing page (D24): each connected source's monthly average beside the seller's claim,
 * with the 12 months it is taken from. Nothing for a listing with no source connected.
 */
export function VerifiedFigures({ verification }: { verification: ListingVerificationDto | undefined }) {
  if (!verification || !hasVerifiedFigures(verification)) return null;
  return (
    <section className="card verified-figures" aria-labelledby="verified-figures-title" id="verified-figures">
      <h2 id="verified-figures-title">Verified figures</h2>
      <p className="muted verified-figures-intro">
        Read with read-only access from the Stripe and Google Analytics accounts the seller connected, and refreshed daily while the listing is live.
      </p>
      {verification.revenue && <VerifiedRevenue figure={verification.revenue} />}
      {verification.traffic && <VerifiedTraffic figure={verification.traffic} />}
    </section>
  );
}
