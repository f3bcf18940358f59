import type { ReactElement } from 'react';
import type { MessageDto, MessagesResponse } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { messagesApi } from '../../api/messages.api';
import { api } from '../../lib/api';
import { ComposeMessageDialog } from '../../components/messages/ComposeMessageDialog';
import { ConversationItem, MessagesTab } from './MessagesTab';
import { conversationsOf, NO_MESSAGES_TEXT } from './messages';
import { renderStatic, visibleText } from '../../testing/static-render';

jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('../../components/form/form-fields.css', () => ({}));
jest.mock('../../components/messages/messages.css', () => ({}));
jest.mock('./messages.css', () => ({}));

const render = (element: ReactElement, store: AppStore = createStore(), url = '/dashboard?tab=messages') => renderStatic(element, store, url);
const text = visibleText;

const received: MessageDto = {
  id: 'm1',
  sender: { id: 'ann', username: 'ann' },
  receiver: { id: 'me', username: 'me_user' },
  receiver_id: 'me',
  listing_id: 'l1',
  listing_title: 'Recipe blog',
  subject: 'Is it still for sale?',
  content: 'Hello!\nCould we talk?',
  read: false,
  created_at: '2026-11-20T10:00:00.000Z',
  direction: 'received',
};

const stores: AppStore[] = [];
// Resetting the API state also stops the timers that would drop unused cache entries later (and hold Jest open a minute).
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function storeWith(messages: MessageDto[]): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  await store.dispatch(messagesApi.util.upsertQueryData('messages', undefined, { messages } satisfies MessagesResponse));
  return store;
}

describe('MessagesTab', () => {
  it('shows the loading state first', () => {
    expect(text(render(<MessagesTab />))).toContain('Loading your messages...');
  });

  it('shows the empty state with a way to browse', async () => {
    const html = render(<MessagesTab />, await storeWith([]));
    expect(text(html)).toContain(NO_MESSAGES_TEXT);
    expect(html).toContain('href="/browse"');
  });

  it('lists a conversation with its unread count, closed until opened', async () => {
    const html = render(<MessagesTab />, await storeWith([received]));
    expect(text(html)).toContain('ann 1 unread Is it still for sale? About "Recipe blog"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('conversation-unread');
    expect(html).not.toContain('Could we talk?');
  });
});

describe('ConversationItem', () => {
  it('opened, shows the messages, the listing link and Reply', () => {
    const [conversation] = conversationsOf([received, { ...received, id: 'm2', direction: 'sent', sender: received.receiver, receiver: received.sender, receiver_id: received.sender.id, subject: 'Re: Is it still for sale?', content: 'Yes', created_at: '2026-11-20T11:00:00.000Z' }]);
    const html = render(<ConversationItem conversation={conversation} open onToggle={() => undefined} onReply={() => undefined} />);
    expect(html).toContain('aria-expanded="true"');
    expect(html).toContain('href="/listing/l1"');
    expect(text(html)).toMatch(/ann · .* · New Is it still for sale\? Hello! Could we talk\? You · .* Re: Is it still for sale\? Yes Reply/);
  });
});

describe('ComposeMessageDialog', () => {
  it('opens as a labelled dialog, prefilled, to the named person', () => {
    const html = render(
      <ComposeMessageDialog title="Contact Seller" to={{ id: 'ann', username: 'ann' }} listingId="l1" initial={{ subject: 'Inquiry about "Recipe blog"', content: 'Hi' }} onClose={() => undefined} send={() => Promise.reject(new Error('not sent in this render'))} sending={false} />,
    );
    expect(html).toMatch(/role="dialog" aria-modal="true" aria-labelledby="compose-message-title"/);
    expect(text(html)).toContain('Contact Seller To: ann');
    expect(html).toContain('value="Inquiry about &quot;Recipe blog&quot;"');
    expect(html).toMatch(/<button type="submit" class="btn btn-primary">Send Message<\/button>/);
  });
});
