import { HttpException, Injectable, createParamDecorator, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, switchMap, throwError, type Observable } from 'rxjs';
import { AppError } from '@market/server-kit';
import { ObjectStorage } from './object-storage';
import { receiveScreenshots, type StoredScreenshot } from './multipart-screenshots';

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

/**
 * For create/edit routes: a multipart/form-data body is parsed here (text fields into req.body, files in
 * `screenshots` checked and stored); other bodies pass through untouched. Stored files are removed again when
 * the checks fail or the handler refuses the request.
 */
@Injectable()
export class ScreenshotsInterceptor implements NestInterceptor {
  constructor(private readonly storage: ObjectStorage) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.is('multipart/form-data')) return next.handle();
    return from(receiveScreenshots(req, this.storage)).pipe(
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
