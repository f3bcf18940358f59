import { MESSAGE_CONTENT_MAX, MESSAGE_SUBJECT_MAX, MESSAGE_TEXTS } from '@market/contracts';
import { errorDetail } from '../../lib/error-detail';

export interface MessageDraft {
  subject: string;
  content: string;
}

export type DraftErrors = Partial<Record<keyof MessageDraft, string>>;

/** SPEC §5: subject and message are required; the server's limits are checked here too. */
export function validateDraft(draft: MessageDraft): DraftErrors {
  const errors: DraftErrors = {};
  const subject = draft.subject.trim();
  const content = draft.content.trim();
  if (!subject) errors.subject = 'Subject is required';
  else if (subject.length > MESSAGE_SUBJECT_MAX) errors.subject = `Subject must be at most ${MESSAGE_SUBJECT_MAX} characters`;
  if (!content) errors.content = 'Message is required';
  else if (content.length > MESSAGE_CONTENT_MAX) errors.content = `Message must be at most ${MESSAGE_CONTENT_MAX} characters`;
  return errors;
}

/** SPEC §8: the server's detail when it gave one, else 'Error sending message. Please try again.'. */
export function sendFailureText(error: unknown): string {
  return errorDetail(error, MESSAGE_TEXTS.sendFailed);
}

/** The contact-seller draft (SPEC §2): the subject names the listing, and so does the message. */
export function contactSellerDraft(listingTitle: string): MessageDraft {
  return {
    subject: `Inquiry about "${listingTitle}"`,
    content: `Hi,\n\nI'm interested in your listing "${listingTitle}" and would like to know more about it.\n\nThanks`,
  };
}

/** D4: from $5,000 a purchase goes through escrow arranged with the seller; this draft starts that conversation. */
export function escrowDraft(listingTitle: string): MessageDraft {
  return {
    subject: `Escrow purchase of "${listingTitle}"`,
    content: `Hi,\n\nI'd like to buy "${listingTitle}" through escrow. Could we arrange the details?\n\nThanks`,
  };
}
