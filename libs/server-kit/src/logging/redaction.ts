/**
 * What pino blanks in logged objects (ADR 0049): credentials, session material and card data, at the top and one level
 * down; and a bidder's maximum, which only its owner may ever see (ADR 0055).
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'new_password',
  'current_password',
  'token',
  'access_token',
  'refresh_token',
  'secret',
  'client_secret',
  'api_key',
  'card',
  'card_number',
  'cvc',
  'cvv',
  'max_amount',
];

/** Redaction paths for pino: each secret key at the top level, one level down and in request/response headers. */
export const REDACT_PATHS = [
  ...SECRET_KEYS.map((key) => (key.includes('-') ? `["${key}"]` : key)),
  ...SECRET_KEYS.map((key) => `*${key.includes('-') ? `["${key}"]` : `.${key}`}`),
  ...['req', 'res', 'request', 'response'].flatMap((at) => ['authorization', 'cookie', 'set-cookie'].map((key) => `${at}.headers["${key}"]`)),
];

export const REDACTED = '[redacted]';

const SCHEME_CREDENTIALS = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+/g;
const KEY_VALUE = /\b(password|passwd|token|secret|authorization|cookie|api[_-]?key|access_token|refresh_token|card_number|cvc|max_amount)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi;
const CARD_CANDIDATE = /\b\d(?:[ -]?\d){12,18}\b/g;

/** Luhn checksum: card numbers pass it, most other long digit runs (ids, times) do not. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A message with the credentials, tokens and card numbers it embeds blanked, for a log line (ADR 0049). */
export function scrubMessage(message: string): string {
  return message
    .replace(SCHEME_CREDENTIALS, `$1 ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(KEY_VALUE, `$1$2${REDACTED}`)
    .replace(CARD_CANDIDATE, (candidate) => (luhn(candidate.replace(/[ -]/g, '')) ? REDACTED : candidate));
}
