import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { MessageDto } from '@market/contracts';
import { useMarkMessageReadMutation, useMessagesQuery, useSendMessage } from '../../api/messages.api';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { ComposeMessageDialog } from '../../components/messages/ComposeMessageDialog';
import { conversationsOf, messageTime, NO_MESSAGES_HINT, NO_MESSAGES_TEXT, replySubject, type Conversation } from './messages';
import './messages.css';

/** The Messages tab (SPEC §2): conversations, newest first; opening one marks what it received as read. */
export function MessagesTab() {
  const { data, isLoading, isError, refetch } = useMessagesQuery();
  const [markRead] = useMarkMessageReadMutation();
  const [open, setOpen] = useState<string | null>(null);
  const [replying, setReplying] = useState<Conversation | null>(null);
  const sender = useSendMessage();

  if (isLoading) return <LoadingState text="Loading your messages..." />;
  if (isError || !data) return <LoadError onRetry={() => void refetch()}>Error loading messages.</LoadError>;
  const conversations = conversationsOf(data.messages);

  const toggle = (conversation: Conversation) => {
    const opening = open !== conversation.key;
    setOpen(opening ? conversation.key : null);
    if (!opening) return;
    for (const message of conversation.messages) {
      if (message.direction === 'received' && !message.read) void markRead(message.id);
    }
  };

  return (
    <section aria-labelledby="messages-heading">
      <h2 id="messages-heading">Messages</h2>
      {conversations.length === 0 ? (
        <EmptyState>
          <p>
            <strong>{NO_MESSAGES_TEXT}</strong>
          </p>
          <p className="muted">{NO_MESSAGES_HINT}</p>
          <Link className="btn btn-primary" to="/browse">
            Browse Websites
          </Link>
        </EmptyState>
      ) : (
        <ul className="conversations">
          {conversations.map((conversation) => (
            <ConversationItem
              key={conversation.key}
              conversation={conversation}
              open={open === conversation.key}
              onToggle={() => toggle(conversation)}
              onReply={() => setReplying(conversation)}
            />
          ))}
        </ul>
      )}
      {replying && (
        <ComposeMessageDialog
          title={`Reply to ${replying.counterpart.username}`}
          to={replying.counterpart}
          listingId={replying.listing_id}
          initial={{ subject: replySubject(replying.messages[replying.messages.length - 1].subject), content: '' }}
          onClose={() => setReplying(null)}
          {...sender}
        />
      )}
    </section>
  );
}

interface ItemProps {
  conversation: Conversation;
  open: boolean;
  onToggle: () => void;
  onReply: () => void;
}

/** One conversation: who, about what, the latest subject and unread count; opened, its messages and Reply. */
export function ConversationItem({ conversation, open, onToggle, onReply }: ItemProps) {
  const latest = conversation.messages[conversation.messages.length - 1];
  const panelId = `conversation-${conversation.key.replace(/[^a-z0-9-]/gi, '')}`;
  return (
    <li className={`card conversation${conversation.unread > 0 ? ' conversation-unread' : ''}`}>
      <button type="button" className="conversation-head" aria-expanded={open} aria-controls={panelId} onClick={onToggle}>
        <span className="conversation-who">
          {conversation.counterpart.username}
          {conversation.unread > 0 && <span className="badge badge-blue conversation-badge">{conversation.unread} unread</span>}
        </span>
        <span className="conversation-subject">{latest.subject}</span>
        <span className="muted conversation-meta">
          {conversation.listing_title ? `About "${conversation.listing_title}" · ` : ''}
          {messageTime(conversation.last_at)}
        </span>
      </button>
      {open && (
        <div id={panelId} className="conversation-body">
          {conversation.listing_id && (
            <p className="conversation-listing">
              <Link to={`/listing/${conversation.listing_id}`}>View listing{conversation.listing_title ? `: ${conversation.listing_title}` : ''}</Link>
            </p>
          )}
          <ol className="conversation-messages">
            {conversation.messages.map((message) => (
              <MessageItem key={message.id} message={message} />
            ))}
          </ol>
          <button type="button" className="btn btn-primary btn-small" onClick={onReply}>
            Reply
          </button>
        </div>
      )}
    </li>
  );
}

function MessageItem({ message }: { message: MessageDto }) {
  const mine = message.direction === 'sent';
  return (
    <li className={`message ${mine ? 'message-sent' : 'message-received'}`}>
      <p className="message-head">
        <strong>{mine ? 'You' : message.sender.username}</strong>
        <span className="muted"> · {messageTime(message.created_at)}</span>
        {!mine && !message.read && <span className="message-new"> · New</span>}
      </p>
      <p className="message-subject">{message.subject}</p>
      <p className="message-content">{message.content}</p>
    </li>
  );
}
