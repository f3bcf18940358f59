interface ValidationIssue {
  loc?: (string | number)[];
  msg?: string;
}

export interface DetailOptions {
  /** Write each list entry as 'field: message' (SPEC §8 create form), the field being the last part of its location. */
  withLocation?: boolean;
}

function issueText(issue: ValidationIssue, withLocation: boolean): string {
  const message = issue.msg ?? 'Invalid value';
  if (!withLocation) return message;
  const location = issue.loc && issue.loc.length > 0 ? String(issue.loc[issue.loc.length - 1]) : '';
  return location && location !== 'body' ? `${location}: ${message}` : message;
}

/** A response body's {detail} as text: a string as is, a validation list joined with commas, otherwise the fallback. */
export function bodyDetail(body: unknown, fallback: string, options: DetailOptions = {}): string {
  const detail = (body as { detail?: unknown } | null | undefined)?.detail;
  if (typeof detail === 'string' && detail.trim()) return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    return (detail as ValidationIssue[]).map((issue) => issueText(issue, options.withLocation ?? false)).join(', ');
  }
  return fallback;
}

/** The server's {detail} of a failed RTK Query request as text: a string as is, a validation list joined, otherwise the fallback. */
export function errorDetail(error: unknown, fallback: string, options?: DetailOptions): string {
  return bodyDetail((error as { data?: unknown } | undefined)?.data, fallback, options);
}
