import { useState } from 'react';
import type { InvoiceDto } from '@market/contracts';
import { useCheckTransferProofMutation, useTransferProofQuery } from '../../api/transfer-proof.api';
import { errorDetail } from '../../lib/error-detail';

const HELD = ['payment_authorized', 'disputed'];

/**
 * "Transfer verified" (ADR 0040): both parties see when the buyer's own token showed on the site's domain; while the
 * funds are held and it has not, the buyer can open the steps (publish the token, Check now).
 */
export function TransferVerification({ invoice }: { invoice: InvoiceDto }) {
  const [open, setOpen] = useState(false);
  const [verifiedAt, setVerifiedAt] = useState<string | null>(null);
  const verified = invoice.transfer.verified_at ?? verifiedAt;
  if (verified) {
    return (
      <p className="invoice-transfer-verified" data-testid="transfer-verified">
        <span className="badge badge-green">✓ Transfer verified</span>{' '}
        <span className="muted">The buyer&apos;s token showed on the domain on {new Date(verified).toLocaleString()}.</span>
      </p>
    );
  }
  if (invoice.role !== 'buyer' || !HELD.includes(invoice.status)) return null;
  return (
    <div className="invoice-transfer-proof">
      {!open ? (
        <button type="button" className="btn btn-secondary btn-tiny" aria-expanded={false} onClick={() => setOpen(true)}>
          Verify the transfer on the domain
        </button>
      ) : (
        <TransferProofSteps invoiceId={invoice.id} onVerified={setVerifiedAt} />
      )}
    </div>
  );
}

function TransferProofSteps({ invoiceId, onVerified }: { invoiceId: string; onVerified: (at: string) => void }) {
  const { data: proof, error, isLoading } = useTransferProofQuery(invoiceId);
  const [check, { isLoading: checking }] = useCheckTransferProofMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const run = async () => {
    setProblem(null);
    try {
      const result = await check(invoiceId).unwrap();
      if (result.verified_at) onVerified(result.verified_at);
    } catch (failure) {
      setProblem(errorDetail(failure, 'The check could not run. Please try again in a minute.'));
    }
  };
  if (isLoading) return <p role="status">Loading your transfer token...</p>;
  if (error || !proof) return <p className="alert alert-error">{errorDetail(error, 'Your transfer token could not be loaded.')}</p>;
  return (
    <section className="transfer-proof-steps" aria-label="Verify the transfer">
      <p className="muted">
        Once the domain is yours, prove it: add a TXT record on <strong>{proof.domain}</strong> with this value, or serve it at{' '}
        <code className="transfer-proof-value">{proof.file_url}</code>
      </p>
      <code className="transfer-proof-value" data-testid="transfer-proof-txt">
        {proof.txt_record}
      </code>
      <button type="button" className="btn btn-primary btn-tiny" onClick={run} disabled={checking}>
        {checking ? 'Checking...' : 'Check now'}
      </button>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
