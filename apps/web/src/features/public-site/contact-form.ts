import { CONTACT_SUBJECTS, MESSAGE_CONTENT_MAX, MESSAGE_TEXTS, type ContactUrgency } from '@market/contracts';

export interface ContactDraft {
  name: string;
  email: string;
  subject: string;
  message: string;
  urgency: ContactUrgency;
}
export type ContactErrors = Partial<Record<keyof ContactDraft, string>>;

export const EMPTY_CONTACT: ContactDraft = { name: '', email: '', subject: '', message: '', urgency: 'normal' };

/** SPEC §9: how soon support answers, and when. */
export const RESPONSE_TIMES = [
  { label: 'General inquiries', time: '24 hours' },
  { label: 'Technical support', time: '12 hours' },
  { label: 'Urgent issues', time: '4 hours' },
] as const;
export const SUPPORT_HOURS = 'Mon-Fri 9AM-6PM EST';

/** SPEC §5: name, email, subject and message are required; the subject is one of the list. */
export function validateContact(draft: ContactDraft): ContactErrors {
  const errors: ContactErrors = {};
  if (!draft.name.trim()) errors.name = 'Name is required';
  else if (draft.name.trim().length > 100) errors.name = 'Name must be at most 100 characters';
  if (!draft.email.trim()) errors.email = 'Email is required';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(draft.email.trim())) errors.email = 'Enter a valid email address';
  if (!(CONTACT_SUBJECTS as readonly string[]).includes(draft.subject)) errors.subject = 'Choose a subject';
  if (!draft.message.trim()) errors.message = 'Message is required';
  else if (draft.message.trim().length > MESSAGE_CONTENT_MAX) errors.message = `Message must be at most ${MESSAGE_CONTENT_MAX} characters`;
  return errors;
}

/** SPEC §8: the answer shown after sending, green when it thanks the sender, otherwise red. */
export function contactResult(outcome: { ok: true; message?: string } | { ok: false }): { text: string; success: boolean } {
  const text = outcome.ok ? outcome.message || MESSAGE_TEXTS.contactThanks : MESSAGE_TEXTS.contactFailed;
  return { text, success: text.includes('Thank you') };
}
