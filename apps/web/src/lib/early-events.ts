/**
 * What a visitor does on a server-rendered page before the app has taken it over (ADR 0072, amended): the page is
 * painted and readable first, and its buttons and fields work only once the app runs. This keeps what was typed into
 * fields and the last press of a button, and gives it to the app once it runs. It imports nothing: the entry stays small.
 */

type Field = HTMLInputElement | HTMLTextAreaElement;

const isField = (target: EventTarget | null): target is Field => target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;

/** Writes `value` into a field so that React sees a change and calls its onChange, as if it had just been typed. */
function retype(field: Field, value: string): void {
  // The element's own value setter is the one React watches; the prototype's is the browser's. Clearing through the
  // first and typing through the second leaves React a difference to report on the input event.
  field.value = '';
  const prototypeValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value');
  prototypeValue?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Starts keeping early typing and button presses; returns the function to call once the app has taken the page over,
 * which stops keeping them and hands them to the app: each typed field's value, then the kept press.
 */
export function holdEarlyEvents(doc: Document): () => void {
  const typed = new Set<Field>();
  let pressed: HTMLElement | null = null;
  const onInput = (event: Event) => {
    if (isField(event.target)) typed.add(event.target);
  };
  const onClick = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('button, input[type="submit"]') : null;
    if (!button) return;
    // Without the app a button does nothing, and a submit button would send its form the old way; a page already
    // hydrated but whose session is not yet known must not act on it either (it would act as a guest), so it is
    // kept from React until the hand-over presses it again.
    event.preventDefault();
    event.stopPropagation();
    pressed = button;
  };
  doc.addEventListener('input', onInput, true);
  doc.addEventListener('click', onClick, true);
  return () => {
    doc.removeEventListener('input', onInput, true);
    doc.removeEventListener('click', onClick, true);
    for (const field of typed) if (field.isConnected) retype(field, field.value);
    if (pressed?.isConnected) pressed.click();
  };
}
