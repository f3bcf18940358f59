import { CreateEventTables1763800000000 } from './1763800000000-create-event-tables';
import { OutboxTraceparent1763800000001 } from './1763800000001-outbox-traceparent';
import { RetentionIndexes1763800000002 } from './1763800000002-retention-indexes';
import { CreateIdempotencyKeys1763800000003 } from './1763800000003-create-idempotency-keys';
import { OutboxSignature1763800000004 } from './1763800000004-outbox-signature';

/** The tables every service has (outbox, processed events, idempotency keys), migrated before its own. */
export const KIT_MIGRATIONS = [CreateEventTables1763800000000, OutboxTraceparent1763800000001, RetentionIndexes1763800000002, CreateIdempotencyKeys1763800000003, OutboxSignature1763800000004];
