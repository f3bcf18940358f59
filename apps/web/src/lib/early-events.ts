/**
 * What a visitor does on a server-rendered page before the app has taken it over (ADR 0072, amended): the page is
 * painted and readable first, and its buttons and fields work only once the app runs. This keeps what was typed or
 * chosen in fields and the last press of a button, and gives them to the app: the fields once the page is hydrated,
 * the press once it is known who is signed in. It imports nothing: the entry stays small.
 */

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** Fields whose values are not typed again: secrets, files and what the page sets itself. */
const UNTYPED = new Set(['password', 'file', 'hidden', 'checkbox', 'radio', 'submit', 'button', 'reset', 'image']);

const isField = (target: EventTarget | null): target is Field =>
  target instanceof HTMLSelectElement ||
  target instanceof HTMLTextAreaElement ||
  (target instanceof HTMLInputElement && !UNTYPED.has(target.type));

/**
 * A pressed button as it was: handed over only if it still is the same button saying the same thing. When React
 * rendered that part again meanwhile (mending a difference from the server's HTML replaces the elements), the one
 * button now saying the same, of the same kind and in the same form, is it, provided that label was the page's only
 * one when pressed: a guest's "Place Bid" is replaced by a buyer's bid form whose submit button says the same, and
 * pressing that would send an empty bid.
 */
interface Press {
  button: HTMLElement;
  label: string;
  kind: string;
  unique: boolean;
}

const BUTTONS = 'button, input[type="submit"]';
const labelOf = (button: HTMLElement) => `${button.getAttribute('aria-label') ?? ''}|${button.textContent ?? ''}`;
/** The element, its type and the form it is in (by name, or none): what a button does besides what it says. */
const kindOf = (button: HTMLElement) => {
  const form = button.closest('form');
  return `${button.tagName}|${button.getAttribute('type') ?? ''}|${form ? `form:${form.getAttribute('aria-label') ?? ''}` : 'no form'}`;
};
const sameLabelled = (doc: Document, label: string) => [...doc.querySelectorAll<HTMLElement>(BUTTONS)].filter((b) => labelOf(b) === label);

/** The kept press's button now: the element itself, else its only replacement (see Press), else null. */
function buttonOf(doc: Document, press: Press): HTMLElement | null {
  let button: HTMLElement | null = press.button;
  if (!button.isConnected) {
    const now = sameLabelled(doc, press.label);
    button = press.unique && now.length === 1 && kindOf(now[0]) === press.kind ? now[0] : null;
  }
  if (!button || button.hasAttribute('disabled') || labelOf(button) !== press.label) return null;
  return button;
}

/** Writes `value` into a field so that React sees a change and calls its onChange, as if it had just been typed. */
function retype(field: Field, value: string): void {
  if (field instanceof HTMLSelectElement) {
    field.value = value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  // The element's own value setter is the one React watches; the prototype's is the browser's. Clearing through the
  // first and typing through the second leaves React a difference to report on the input event.
  field.value = '';
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** What holdEarlyEvents gives back: each step of the hand-over, and the way out when the app does not start. */
export interface EarlyEvents {
  /**
   * React listens from here on (hydrateRoot was called): a change made while it hydrates is React's own, since React
   * hydrates at once what such an event lands on and answers it. Fields changed from here are no longer kept, and one
   * kept before is forgotten, or handing it over would say it twice or put back an older value.
   */
  listening(): void;
  /** The page is hydrated: the fields kept before React listened go to React. */
  typed(): void;
  /** The session is known (or `known` false: it could not be): stop holding, and press the kept button if any. */
  pressed(known: boolean): void;
  /** The app did not start: stop holding and drop what was kept, so the page's plain HTML works as it can. */
  release(): void;
}

/** Starts keeping early typing and button presses (see EarlyEvents for how they are handed over). */
export function holdEarlyEvents(doc: Document): EarlyEvents {
  const values = new Map<Field, string>();
  let press: Press | null = null;
  let holding = true;
  let reactListens = false;
  const onInput = (event: Event) => {
    if (!isField(event.target)) return;
    if (reactListens) values.delete(event.target);
    else values.set(event.target, event.target.value);
  };
  const onClick = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>(BUTTONS) : null;
    if (!button || !event.isTrusted) return;
    // Without the app a button does nothing, and a submit button would send its form the old way; a page already
    // hydrated whose session is not yet known must not act on it either (it would act as a guest), so it is kept from
    // React until the hand-over presses it again.
    event.preventDefault();
    event.stopPropagation();
    const label = labelOf(button);
    press = { button, label, kind: kindOf(button), unique: sameLabelled(doc, label).length === 1 };
  };
  const stop = () => {
    if (!holding) return;
    holding = false;
    doc.removeEventListener('input', onInput, true);
    doc.removeEventListener('change', onInput, true);
    doc.removeEventListener('click', onClick, true);
  };
  doc.addEventListener('input', onInput, true);
  doc.addEventListener('change', onInput, true);
  doc.addEventListener('click', onClick, true);
  return {
    listening() {
      reactListens = true;
    },
    typed() {
      for (const [field, value] of values) {
        try {
          if (field.isConnected) retype(field, value);
        } catch {
          // A field that cannot take its value back keeps what it shows; the others still get theirs.
        }
      }
      values.clear();
    },
    pressed(known) {
      stop();
      const kept = press;
      press = null;
      // A press made before it was known who is signed in is not made as a guest: without the session it is dropped.
      const button = kept && known ? buttonOf(doc, kept) : null;
      button?.click();
    },
    release() {
      stop();
      values.clear();
      press = null;
    },
  };
}
