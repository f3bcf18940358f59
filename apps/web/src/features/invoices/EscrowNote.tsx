import { Link } from 'react-router-dom';
import type { InvoiceDto } from '@market/contracts';
import { SaleMoneyBadge } from '../../components/payouts/SaleMoneyBadge';
import { escrowView } from './escrow';

/** A row's escrow lines (D22): where the held money is, when it goes to the seller, and the seller's payout. */
export function EscrowNote({ invoice }: { invoice: InvoiceDto }) {
  const view = escrowView(invoice);
  if (!view) return null;
  return (
    <div className="invoice-escrow" data-testid="invoice-escrow">
      {view.lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {view.payoutStatus && (
        <p>
          Payout: <SaleMoneyBadge status={view.payoutStatus} testId="invoice-payout-status" />
        </p>
      )}
      {view.setupPrompt && (
        <p>
          <Link to="/dashboard?tab=payouts" data-testid="invoice-setup-payouts">
            {view.setupPrompt}
          </Link>
        </p>
      )}
    </div>
  );
}
