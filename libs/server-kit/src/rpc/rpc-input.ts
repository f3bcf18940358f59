import type { z } from 'zod';
import type { Actor, ValidationIssue } from '@market/contracts';
import { AppError, forbidden, unauthorized } from '../errors/app-error';

/** Turns zod issues into the API's 422 detail list, located in the given part of the request. */
export function toValidationIssues(error: z.ZodError, where: 'body' | 'query' | 'path' = 'body'): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
  }));
}

function nulPath(value: unknown, path: (string | number)[], depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = nulPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** PostgreSQL text cannot hold NUL characters: refuse them as a 422 instead of failing in the database. */
export function rejectNulText(value: unknown, where: 'body' | 'query' | 'path' = 'body'): void {
  const path = nulPath(value, []);
  if (path) throw new AppError('validation_failed', [{ loc: [where, ...path], msg: 'Text cannot contain NUL characters', type: 'string_nul' }]);
}

/** Services re-validate what the gateway already checked: a message is never trusted blindly. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  rejectNulText(data);
  const result = schema.safeParse(data);
  if (!result.success) throw new AppError('validation_failed', toValidationIssues(result.error));
  return result.data;
}

/** The actor of a message, or 401 when the request was anonymous. */
export function requireActor(actor: Actor | null | undefined): Actor {
  if (!actor) throw unauthorized();
  return actor;
}

/** True for a real admin: an admin's own session, never an impersonation (D14). */
export function isRealAdmin(actor: Actor | null | undefined): boolean {
  return actor?.role === 'admin' && !actor.impersonator_id;
}

/** The actor of an admin operation: a real admin, never an impersonation (D14). */
export function requireAdmin(actor: Actor | null | undefined): Actor {
  const checked = requireActor(actor);
  if (!isRealAdmin(checked)) throw forbidden('Admin access required');
  return checked;
}
