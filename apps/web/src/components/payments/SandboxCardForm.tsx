import { useId, useState, type FormEvent } from 'react';
import type { SandboxCardFields } from '../../lib/sandbox-card';
import { checkCard, formatCardNumber, formatExpiry, TEST_CARDS, type CardField, type CardInput } from './payments';

export interface SandboxCardFormProps {
  /** The submit button's text, e.g. 'Pay $4,500 Securely'. */
  submitLabel: string;
  /** The payment can be confirmed (a client secret exists); until then the button is disabled. */
  ready: boolean;
  busy: boolean;
  /** The button's text while busy (default 'Processing Payment...'). */
  busyLabel?: string;
  onPay: (card: SandboxCardFields) => void;
}

const EMPTY: CardInput = { number: '', expiry: '', cvc: '' };

/**
 * The sandbox provider's card form (D12), marked TEST MODE: number, expiry and CVC, checked here first (Luhn, expiry,
 * CVC) so a mistyped card never leaves the page. The inputs have no name attribute, so even a form sent without
 * JavaScript would put nothing in a URL; the number lives only in this component's state.
 */
export function SandboxCardForm({ submitLabel, ready, busy, busyLabel = 'Processing Payment...', onPay }: SandboxCardFormProps) {
  const id = useId();
  const [card, setCard] = useState<CardInput>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});

  const change = (field: CardField, value: string) => {
    setCard((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const checked = checkCard(card);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    onPay(checked.card);
  };

  const field = (name: CardField, label: string, props: React.InputHTMLAttributes<HTMLInputElement>, format: (value: string) => string) => (
    <div className={`sandbox-field sandbox-field-${name}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        className={errors[name] ? 'input-invalid' : undefined}
        value={card[name]}
        onChange={(event) => change(name, format(event.target.value))}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
        inputMode="numeric"
        spellCheck={false}
        disabled={busy}
        {...props}
      />
      {errors[name] && (
        <span id={`${id}-${name}-error`} className="field-error" role="alert">
          {errors[name]}
        </span>
      )}
    </div>
  );

  return (
    <form className="sandbox-card-form" onSubmit={submit} noValidate aria-label="Card details">
      <div className="sandbox-test-mode" role="note">
        <strong>TEST MODE</strong> <span>No real card is charged. Use a test card:</span>
        <ul className="sandbox-test-cards">
          {TEST_CARDS.map((test) => (
            <li key={test.number}>
              <code>{test.number}</code> {test.outcome}
            </li>
          ))}
        </ul>
        <span className="muted">Any future expiry date and any 3-digit CVC.</span>
      </div>
      {field('number', 'Card number', { autoComplete: 'cc-number', placeholder: '4242 4242 4242 4242', maxLength: 23 }, formatCardNumber)}
      <div className="sandbox-field-row">
        {field('expiry', 'Expiry (MM / YY)', { autoComplete: 'cc-exp', placeholder: 'MM / YY', maxLength: 7 }, formatExpiry)}
        {field('cvc', 'CVC', { autoComplete: 'cc-csc', placeholder: '123', maxLength: 4 }, (value) => value.replace(/\D/g, '').slice(0, 4))}
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={!ready || busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
