import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { CONTACT_SUBJECTS, CONTACT_URGENCIES, type ContactForm } from '@market/contracts';
import { useAppSelector } from '../../lib/store-hooks';
import { useSendContactMutation } from '../../api/contact.api';
import { SelectField } from '../../components/form/SelectField';
import { TextAreaField } from '../../components/form/TextAreaField';
import { TextField } from '../../components/form/TextField';
import { usePageMeta } from '../../lib/page-meta';
import { contactResult, EMPTY_CONTACT, RESPONSE_TIMES, SUPPORT_HOURS, validateContact, type ContactDraft, type ContactErrors } from './contact-form';
import './public-site.css';

const URGENCY_LABELS = { low: 'Low', normal: 'Normal', high: 'High' } as const;

/** /contact (SPEC §5, §8, §9): the form to support, its response times and hours. */
export function ContactPage() {
  const user = useAppSelector((state) => state.session.user);
  usePageMeta({ title: 'Contact Us', description: 'Contact Site Market support: general questions, technical support, payments, listings and more.' });
  return (
    <div className="container section public-page">
      <h1>Contact Us</h1>
      <p className="lead">Questions about buying, selling, payments or your account? Send us a message.</p>
      <div className="contact-layout">
        {/* Keyed by the user so a sign-in fills the name and email in. */}
        <ContactFormCard key={user?.id ?? 'guest'} initial={{ ...EMPTY_CONTACT, name: user?.name ?? user?.username ?? '', email: user?.email ?? '' }} />
        <aside className="card contact-aside" aria-labelledby="response-times">
          <h2 id="response-times">Response times</h2>
          <ul className="response-times">
            {RESPONSE_TIMES.map((r) => (
              <li key={r.label}>
                <span>{r.label}</span>
                <strong>{r.time}</strong>
              </li>
            ))}
          </ul>
          <h2>Support hours</h2>
          <p>{SUPPORT_HOURS}</p>
          <h2>Quick answers</h2>
          <p>
            Many questions are answered in the <Link to="/help-center?section=faq">FAQ</Link>.
          </p>
        </aside>
      </div>
    </div>
  );
}

function ContactFormCard({ initial }: { initial: ContactDraft }) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [result, setResult] = useState<{ text: string; success: boolean } | null>(null);
  const [send, { isLoading }] = useSendContactMutation();
  // Editing a field clears its message: a fixed field should not stay red until the next Send.
  const set = (field: keyof ContactDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateContact(draft);
    setErrors(found);
    setResult(null);
    if (Object.keys(found).length > 0) return;
    try {
      // validateContact checked the subject is one of CONTACT_SUBJECTS.
      const form = { ...draft, name: draft.name.trim(), email: draft.email.trim(), message: draft.message.trim() } as ContactForm;
      const answer = await send(form).unwrap();
      setResult(contactResult({ ok: true, message: answer.message }));
      setDraft({ ...initial, urgency: 'normal' });
    } catch {
      setResult(contactResult({ ok: false }));
    }
  };

  return (
    <form className="card contact-form" onSubmit={submit} noValidate aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">Send us a message</h2>
      <div className="form-row">
        <TextField label="Name" name="name" autoComplete="name" value={draft.name} error={errors.name} onChange={set('name')} required requiredMark />
        <TextField label="Email" name="email" type="email" autoComplete="email" value={draft.email} error={errors.email} onChange={set('email')} required requiredMark />
      </div>
      <div className="form-row">
        <SelectField label="Subject" name="subject" value={draft.subject} error={errors.subject} onChange={set('subject')} required requiredMark>
          <option value="">Select a subject</option>
          {CONTACT_SUBJECTS.map((subject) => (
            <option key={subject} value={subject}>
              {subject}
            </option>
          ))}
        </SelectField>
        <SelectField label="Urgency" name="urgency" value={draft.urgency} onChange={set('urgency')}>
          {CONTACT_URGENCIES.map((urgency) => (
            <option key={urgency} value={urgency}>
              {URGENCY_LABELS[urgency]}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField label="Message" name="message" rows={6} value={draft.message} error={errors.message} onChange={set('message')} required requiredMark />
      {result && (
        <p className={`alert ${result.success ? 'alert-success' : 'alert-error'}`} role={result.success ? 'status' : 'alert'} data-testid="contact-result">
          {result.text}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={isLoading}>
        {isLoading ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
