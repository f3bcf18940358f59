import { useState, type ReactNode } from 'react';
import type { VerificationConnectionDto, VerificationSource } from '@market/contracts';
import { useDisconnectVerificationMutation } from '../../api/verified-figures.api';
import type { ConfirmRequest } from '../../components/dialog/use-confirm';
import { errorDetail } from '../../lib/error-detail';
import { formatVerifiedDate } from './verified-figures';
import { connectionStateText, DISCONNECT_TEXT, SOURCE_NAMES } from './verification-connections';
import { isReading, READING_SLOW_TEXT, READING_TEXT } from './verification-reading';

type Connection = NonNullable<VerificationConnectionDto['connection']>;

interface ConnectionStatusProps {
  listingId: string;
  source: VerificationSource;
  connection: Connection;
  /** Asks the seller to confirm (the panel's one confirmation dialog). */
  ask: (request: ConfirmRequest) => Promise<boolean>;
  /** The panel stopped asking while the first read still runs (useVerificationConnections). */
  slow?: boolean;
}

const when = (iso: string | null, never: string) => (iso ? formatVerifiedDate(iso) : never);

/**
 * One connected source as its seller sees it: state, charge descriptor or property, dates, last error, and Disconnect.
 * While the first 12-month read runs in the background (ADR 0084) it says so instead of a verified date.
 */
export function ConnectionStatus({ listingId, source, connection, ask, slow = false }: ConnectionStatusProps) {
  const [disconnect, { isLoading }] = useDisconnectVerificationMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const name = SOURCE_NAMES[source];

  const onDisconnect = async () => {
    setProblem(null);
    const confirmed = await ask({ title: `Disconnect ${name}?`, text: DISCONNECT_TEXT[source], confirmLabel: 'Disconnect', tone: 'danger' });
    if (!confirmed) return;
    try {
      await disconnect({ id: listingId, source }).unwrap();
    } catch (error) {
      setProblem(errorDetail(error, `${name} could not be disconnected. Please try again.`));
    }
  };

  const reading = isReading(connection);
  // Stripe's statement descriptor of the newest charge, which the seller may set per charge: not the account's name.
  const rows: Array<[string, ReactNode]> = [
    ['Status', connectionStateText(connection)],
    ...(connection.account_label ? ([['Charges described as', connection.account_label]] as Array<[string, ReactNode]>) : []),
    ...(connection.property_id ? ([['GA4 property', connection.property_id]] as Array<[string, ReactNode]>) : []),
    ['Connected', formatVerifiedDate(connection.connected_at)],
    ...(reading ? [] : ([['Last verified', when(connection.verified_at, 'Not yet')]] as Array<[string, ReactNode]>)),
    ['Last attempt', when(connection.last_attempt_at, 'Not yet')],
  ];
  return (
    <div className="connection-status" data-testid={`connection-${source}`}>
      <dl className="connection-facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={label === 'Status' ? `connection-state connection-state-${connection.state}` : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      {reading && (
        <p className="connection-reading" role="status">
          {READING_TEXT}
          {slow && ` ${READING_SLOW_TEXT}`}
        </p>
      )}
      {connection.last_error && (
        <p className="alert alert-warning connection-error">
          <strong>Last error:</strong> {connection.last_error}
        </p>
      )}
      <button type="button" className="btn btn-danger btn-small" onClick={onDisconnect} disabled={isLoading}>
        {isLoading ? 'Disconnecting...' : `Disconnect ${name}`}
      </button>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
