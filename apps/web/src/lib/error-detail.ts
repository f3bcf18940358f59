interface ValidationIssue {
  loc?: (string | number)[];
  msg?: string;
}

/** The server's {detail} as text: a string as is, a validation list joined, otherwise the fallback. */
export function errorDetail(error: unknown, fallback: string): string {
  const data = (error as { data?: { detail?: unknown } } | undefined)?.data;
  const detail = data?.detail;
  if (typeof detail === 'string' && detail.trim()) return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    return (detail as ValidationIssue[]).map((issue) => issue.msg ?? 'Invalid value').join(', ');
  }
  return fallback;
}
