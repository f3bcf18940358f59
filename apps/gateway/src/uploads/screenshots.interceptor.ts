import { HttpException, Inject, Injectable, createParamDecorator, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, from, switchMap, throwError, type Observable } from 'rxjs';
import type { Actor } from '@market/contracts';
import { AppError, overloaded, rateLimited } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { ImageCleaner } from './clean-image';
import { ObjectStorage } from './object-storage';
import { receiveScreenshots, type StoredScreenshot } from './multipart-screenshots';
import { UPLOAD_RETRY_AFTER_SECONDS, UploadSlots } from './upload-slots';

// The screenshots each request stored, for @UploadedScreenshots(); gone with the request.
const storedByRequest = new WeakMap<object, StoredScreenshot[]>();

/** The screenshots ScreenshotsInterceptor stored for this request (empty when none or not multipart). */
export const UploadedScreenshots = createParamDecorator((_: unknown, context: ExecutionContext): StoredScreenshot[] => {
  return storedByRequest.get(context.switchToHttp().getRequest<Request>()) ?? [];
});

/** Removes stored screenshots, e.g. when the listings service refused the request that brought them. */
export async function discardScreenshots(storage: ObjectStorage, screenshots: Pick<StoredScreenshot, 'key'>[]): Promise<void> {
  if (screenshots.length > 0) await storage.remove(screenshots.map((s) => s.key));
}

// A definite refusal (4xx) means nothing will reference the files; after a 5xx or timeout the listing may
// have been saved anyway, so the files are kept (an orphan is better than a listing with broken images).
const isRefusal = (error: unknown) =>
  (error instanceof AppError && error.status < 500) || (error instanceof HttpException && error.getStatus() < 500);

// How long a refused request's connection may stay open for its answer to be read, whatever the client does.
const CLOSE_AFTER_MS = 5000;

/**
 * After refusing an upload whose body has not all arrived: the rest is never read (a body of any size could follow),
 * the answer says `Connection: close`, so Node closes the connection once it is written, and the socket is destroyed
 * after CLOSE_AFTER_MS whatever happens (ADR 0029).
 */
export function closeUnreadUpload(req: Request, res: Response): void {
  if (req.complete) return;
  req.pause();
  if (!res.headersSent) res.setHeader('Connection', 'close');
  const socket = req.socket;
  const cut = setTimeout(() => socket.destroy(), CLOSE_AFTER_MS);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
}

// Uploads are counted per signed-in user (guards run before interceptors); anonymous ones per client address.
const uploaderOf = (req: Request & { user?: Actor }) => (req.user ? `user:${req.user.user_id}` : `ip:${req.ip ?? ''}`);

/**
 * For create/edit routes: a multipart/form-data body is parsed here (text fields into req.body, files in
 * `screenshots` checked and stored); other bodies pass through untouched. Stored files are removed again when
 * the checks fail or the handler refuses the request. An upload slot is taken when the first file begins, so a form
 * without files takes none (ADR 0064): beyond UPLOADS_MAX_PER_USER for this uploader the request is a 429 with
 * Retry-After and the RateLimit headers (the client's own limit); beyond UPLOADS_MAX_CONCURRENT uploads in this
 * gateway it is a 503 with Retry-After (the server's capacity). A body slower than UPLOADS_DEADLINE_MS in all or
 * UPLOADS_IDLE_MS between chunks is a 408, its slot freed at once. A refused request's connection is closed rather
 * than drained (ADR 0029).
 */
@Injectable()
export class ScreenshotsInterceptor implements NestInterceptor {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly slots: UploadSlots,
    private readonly cleaner: ImageCleaner,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'UPLOADS_DEADLINE_MS' | 'UPLOADS_IDLE_MS'>,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.is('multipart/form-data')) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    let release = () => undefined as void;
    const takeSlot = (): AppError | null => {
      const slot = this.slots.tryAcquire(uploaderOf(req));
      if (slot.ok) {
        release = slot.release;
        return null;
      }
      if (slot.reason === 'gateway') return overloaded('Too many uploads in progress; try again in a few seconds', UPLOAD_RETRY_AFTER_SECONDS);
      const quota = this.slots.maxPerUploader;
      return rateLimited(`You already have ${quota} uploads in progress; try again when they finish`, {
        policy: 'uploads',
        quota,
        unit: 'concurrent-requests',
        remaining: 0,
        reset_seconds: UPLOAD_RETRY_AFTER_SECONDS,
      });
    };
    const deadlines = { totalMs: this.config.UPLOADS_DEADLINE_MS, idleMs: this.config.UPLOADS_IDLE_MS };
    const received = receiveScreenshots(req, { storage: this.storage, cleaner: this.cleaner }, deadlines, takeSlot)
      .catch((error: unknown) => {
        closeUnreadUpload(req, res);
        throw error;
      })
      .finally(() => release());
    return from(received).pipe(
      switchMap(({ fields, screenshots }) => {
        req.body = fields;
        storedByRequest.set(req, screenshots);
        return next.handle().pipe(
          catchError((error: unknown) =>
            isRefusal(error)
              ? from(discardScreenshots(this.storage, screenshots).catch(() => undefined)).pipe(switchMap(() => throwError(() => error)))
              : throwError(() => error),
          ),
        );
      }),
    );
  }
}
