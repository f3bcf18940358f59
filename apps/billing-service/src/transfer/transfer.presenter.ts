import type { DisputeDto, TransferChecklist } from '@market/contracts';
import { DISPUTE_REASON_LABELS } from '@market/domain';
import type { DisputeRecord } from './transfer.repository';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

/** A dispute as both parties and admins read it (ADR 0039): open, being resolved, or closed with its outcome. */
export function disputeDto(row: DisputeRecord): DisputeDto {
  return {
    id: row.id,
    status: row.closed_at ? 'closed' : row.resolution ? 'resolving' : 'open',
    reason: row.reason,
    reason_label: DISPUTE_REASON_LABELS[row.reason],
    message: row.message,
    opened_at: new Date(row.opened_at).toISOString(),
    outcome: row.outcome,
    // The note is the decision's; it is shown once the money moved as decided.
    resolution_note: row.closed_at && row.outcome !== 'lapsed' ? row.resolution_note : null,
    closed_at: iso(row.closed_at),
  };
}

/** An invoice's transfer checklist (ADR 0039). */
export function checklistDto(row: { transfer_started_at: Date | null; transfer_received_at: Date | null; transfer_verified_at: Date | null }): TransferChecklist {
  return { started_at: iso(row.transfer_started_at), received_at: iso(row.transfer_received_at), verified_at: iso(row.transfer_verified_at) };
}
