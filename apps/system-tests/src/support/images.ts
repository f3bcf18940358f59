export { solidPng } from '@market/server-kit/testing';

/** The multipart form of a listing: text fields plus screenshot files. */
export function listingForm(fields: Record<string, string | number | string[] | undefined>, files: Array<{ name: string; data: Buffer; type?: string }> = []): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
  }
  for (const file of files) form.append('screenshots', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/png' }), file.name);
  return form;
}
