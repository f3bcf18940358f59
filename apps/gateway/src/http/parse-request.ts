import { z } from 'zod';
import { AppError, rejectNulText, toValidationIssues } from '@market/server-kit';

/** Validates one part of a request with a contracts schema; a failure is a 422 detail list located in that part. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.infer<S> {
  rejectNulText(value, where);
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('validation_failed', toValidationIssues(result.error, where));
  return result.data;
}
