import { useEffect, useState } from 'react';
import { forgetRefusedToken, readToken } from './storage-keys';

export interface UploadResult {
  status: number;
  ok: boolean;
  /** The parsed JSON body, or null when there was none (or it was not JSON). */
  body: unknown;
}

export interface UploadOptions {
  method: 'POST' | 'PATCH';
  /** Path under /api, e.g. /listings. */
  path: string;
  body: FormData;
  /** Fraction sent so far, 0..1. */
  onProgress?: (fraction: number) => void;
  /** Called when the server refused the token this request carried: the session is over (as in lib/api.ts). */
  onSessionEnded?: () => void;
  /** The user action's Idempotency-Key (ADR 0047): sent again on a retry, the server answers its first result. */
  idempotencyKey?: string;
}

/** A network failure before any answer: status 0 and no body. */
const NETWORK_FAILURE: UploadResult = { status: 0, ok: false, body: null };

/**
 * Sends a multipart form to the API with XMLHttpRequest, because fetch reports no upload progress.
 * Carries the Bearer token; a 401 to a request that carried it forgets the token and reports the session ended.
 */
export function uploadMultipart({ method, path, body, onProgress, onSessionEnded, idempotencyKey }: UploadOptions): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const sentToken = readToken();
    xhr.open(method, `/api${path}`);
    xhr.setRequestHeader('Accept', 'application/json');
    if (sentToken) xhr.setRequestHeader('Authorization', `Bearer ${sentToken}`);
    if (idempotencyKey) xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      onProgress?.(1);
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      if (forgetRefusedToken(xhr.status, sentToken)) onSessionEnded?.();
      resolve({ status: xhr.status, ok: xhr.status >= 200 && xhr.status < 300, body: parsed });
    };
    xhr.onerror = () => resolve(NETWORK_FAILURE);
    xhr.onabort = () => resolve(NETWORK_FAILURE);
    xhr.send(body);
  });
}

/** Preview URLs for picked files; each is revoked when its file goes away or the component unmounts. */
export function useObjectUrls(files: readonly File[]): string[] {
  const [urls, setUrls] = useState<string[]>([]);
  useEffect(() => {
    // Created inside the effect so React's double-run in development cannot leave revoked URLs on screen.
    const created = files.map((file) => URL.createObjectURL(file));
    setUrls(created);
    return () => created.forEach((url) => URL.revokeObjectURL(url));
  }, [files]);
  return urls;
}
