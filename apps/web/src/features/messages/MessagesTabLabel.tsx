import { UNREAD_POLL_MS, useUnreadCountQuery } from '../../api/messages.api';
import { messagesTabLabel } from './messages';
import './messages.css';

/** "Messages" with the unread badge (SPEC §2), refreshed every minute while the dashboard is open. */
export function MessagesTabLabel() {
  const { data } = useUnreadCountQuery(undefined, { pollingInterval: UNREAD_POLL_MS });
  const label = messagesTabLabel(data?.unread_count ?? 0);
  return (
    <>
      {label.text}
      {label.badge && (
        <>
          <span className="tab-badge" data-testid="unread-badge" aria-hidden="true">
            {label.badge}
          </span>
          <span className="visually-hidden">, {data?.unread_count} unread</span>
        </>
      )}
    </>
  );
}
