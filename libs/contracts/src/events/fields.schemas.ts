import { z } from 'zod';

// Event payloads are checked where they are consumed (ADR 0028): a field missing or of the wrong type sends the event
// to the dead-letter subject instead of into a handler. Objects are not strict: a newer producer may add fields.

/** An id: any non-empty string. */
export const id = z.string().min(1);
/** Free text. */
export const text = z.string();
/** An ISO date-time as JSON carries it. */
export const time = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'Not a date-time');
/** Money in dollars. */
export const dollars = z.number().finite();
/** A count: a whole number from zero. */
export const count = z.number().int().min(0);
