import { z } from 'zod';

/**
 * The secrets policy (ADR 0031): a secret read from the environment is refused at start when it is a placeholder, a
 * value this repository has ever published (old compose defaults, README and manifest examples), or too short.
 */

/** Shortest accepted length per secret; any other secret needs DEFAULT_SECRET_MIN_LENGTH. */
const MIN_LENGTHS: Record<string, number> = {
  // Typed by a person at the login form; still four characters over the members' minimum (D13).
  ADMIN_PASSWORD: 12,
  // Issued by the mail provider (app passwords are 16 characters, API keys longer).
  SMTP_PASSWORD: 12,
};
/** Longest accepted length per secret (the password hasher's limit for the admin's, D13). */
const MAX_LENGTHS: Record<string, number> = { ADMIN_PASSWORD: 128 };
export const DEFAULT_SECRET_MIN_LENGTH = 16;
const DEFAULT_MAX_LENGTH = 4096;

/**
 * Values this repository has offered operators (defaults, README and manifest examples): anyone can read them, so they
 * are never secrets. secrets.spec.ts also refuses every secret value written in the files operators copy from.
 */
export const PUBLISHED_SECRET_VALUES: readonly string[] = [
  'change-me-to-a-long-random-secret-of-48-chars',
  'change-this-admin-password',
  'CHANGE_ME_TO_48_RANDOM_CHARACTERS_OR_MORE_PLEASE',
  'CHANGE_ME',
  'minio-secret',
  'minioadmin',
  'postgres',
  'secret',
];

// A value containing one of these was written to be replaced.
const PLACEHOLDER_PARTS = ['change-me', 'change_me', 'changeme', 'change-this', 'change_this', 'changethis', 'replace-me', 'replace_me', 'replaceme', 'placeholder', 'your-secret', 'your_secret', 'xxxxxx'];
// A value whose letters are only one of these words (digits and punctuation aside: "Password-123456") is a guess away.
const PLACEHOLDER_WORDS = new Set(['secret', 'password', 'passwd', 'passw', 'pass', 'admin', 'administrator', 'root', 'test', 'testing', 'default', 'example', 'changeit', 'letmein', 'qwerty', 'minio', 'minioadmin', 'postgres', 'token', 'key', 'secretkey', 'adminpassword', 'stripe', 'smtp', 'mail']);
// Fewer different characters than this is a pattern, not a random value ("aaaaaaaaaaaaaaaa", "abababababababab").
const MIN_DISTINCT_CHARACTERS = 6;

const HOW_TO = 'use a random value (npm run secrets writes them)';

/** The rules one secret is held to: its shortest and longest accepted length. */
export function secretRules(name: string): { minLength: number; maxLength: number } {
  return { minLength: MIN_LENGTHS[name] ?? DEFAULT_SECRET_MIN_LENGTH, maxLength: MAX_LENGTHS[name] ?? DEFAULT_MAX_LENGTH };
}

/** Why a value may not serve as the named secret, or null when it may; the reason never repeats the value. */
export function secretProblem(name: string, value: string): string | null {
  const { minLength, maxLength } = secretRules(name);
  const lower = value.trim().toLowerCase();
  const published = PUBLISHED_SECRET_VALUES.some((known) => known.toLowerCase() === lower);
  const placeholder = PLACEHOLDER_PARTS.some((part) => lower.includes(part)) || PLACEHOLDER_WORDS.has(lower.replace(/[^a-z]/g, ''));
  if (published || placeholder) return `is a placeholder or a value published in this repository, not a secret; ${HOW_TO}`;
  if (value.length < minLength) return `must be at least ${minLength} characters; ${HOW_TO}`;
  if (value.length > maxLength) return `must be at most ${maxLength} characters`;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return `is a repeated pattern, not a secret; ${HOW_TO}`;
  return null;
}

/**
 * The schema of one secret environment variable (ADR 0031): a string that is no placeholder, no published value and
 * long enough for its name's rules. A refused value stops the process with one line naming the variable.
 */
export function secretSchema(name: string) {
  return z.string().superRefine((value, ctx) => {
    const problem = secretProblem(name, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
