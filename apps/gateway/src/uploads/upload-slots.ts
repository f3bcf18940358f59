import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

/** Seconds a refused upload is told to wait (Retry-After): a screenshot upload usually ends within a few. */
export const UPLOAD_RETRY_AFTER_SECONDS = 5;

export type SlotAnswer = { ok: true; release: () => void } | { ok: false; reason: 'gateway' | 'uploader' };

/**
 * Counts the multipart uploads this gateway is receiving, in all and per uploader (ADR 0029). In memory: each
 * gateway bounds its own memory, disk and CPU, so the limits are per process, not shared across replicas.
 */
@Injectable()
export class UploadSlots {
  private total = 0;
  private readonly byUploader = new Map<string, number>();
  readonly maxTotal: number;
  readonly maxPerUploader: number;

  constructor(@Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'UPLOADS_MAX_CONCURRENT' | 'UPLOADS_MAX_PER_USER'>) {
    this.maxTotal = config.UPLOADS_MAX_CONCURRENT;
    this.maxPerUploader = config.UPLOADS_MAX_PER_USER;
  }

  /** Takes a slot for `uploader` (release it once the upload is stored or refused), or says which limit is full. */
  tryAcquire(uploader: string): SlotAnswer {
    const mine = this.byUploader.get(uploader) ?? 0;
    if (mine >= this.maxPerUploader) return { ok: false, reason: 'uploader' };
    if (this.total >= this.maxTotal) return { ok: false, reason: 'gateway' };
    this.total += 1;
    this.byUploader.set(uploader, mine + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.byUploader.get(uploader) ?? 1) - 1;
      if (left === 0) this.byUploader.delete(uploader);
      else this.byUploader.set(uploader, left);
    };
    return { ok: true, release };
  }

  /** Uploads running now (for tests and diagnostics). */
  inUse(): number {
    return this.total;
  }
}
