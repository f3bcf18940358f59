// A Nest app with the real uploads providers and a stand-in for the listings routes, for the uploads integration tests.
import { Body, Controller, Inject, Patch, Post, UseInterceptors, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AllErrorsFilter, badRequest, parseEnvOrThrow } from '@market/server-kit';
import { GATEWAY_CONFIG, gatewayEnv } from '../../gateway.config';
import { jsonBody } from '../../http/body-parsing';
import { ObjectStorage, ScreenshotsInterceptor, UPLOADS_PROVIDERS, UploadedScreenshots, UploadsController, type StoredScreenshot } from '../index';

/** Stands in for the listings controller: echoes what the interceptor produced. */
@Controller('things')
class ThingsController {
  constructor(@Inject(ObjectStorage) readonly storage: ObjectStorage) {}

  @Post()
  @UseInterceptors(ScreenshotsInterceptor)
  create(@Body() body: unknown, @UploadedScreenshots() screenshots: StoredScreenshot[]) {
    return { body: body ?? null, screenshots };
  }

  @Patch('refused')
  @UseInterceptors(ScreenshotsInterceptor)
  refuse() {
    throw badRequest('The listings service said no');
  }
}

/** The header that names the signed-in user in these tests (the real gateway's JWT guard sets req.user). */
export const TEST_USER_HEADER = 'x-test-user';

export interface UploadTestApp {
  app: INestApplication;
  base: string;
}

// The variables the uploads providers read, parsed with the gateway's own schemas (the rest of its config is not needed).
const UPLOADS_ENV = (({
  S3_ENDPOINT,
  S3_ACCESS_KEY,
  S3_SECRET_KEY,
  S3_BUCKET,
  S3_REGION,
  UPLOADS_DIR,
  UPLOADS_MAX_CONCURRENT,
  UPLOADS_MAX_PER_USER,
  UPLOADS_DEADLINE_MS,
  UPLOADS_IDLE_MS,
  UPLOADS_MAX_DECODING,
}) => ({
  S3_ENDPOINT,
  S3_ACCESS_KEY,
  S3_SECRET_KEY,
  S3_BUCKET,
  S3_REGION,
  UPLOADS_DIR,
  UPLOADS_MAX_CONCURRENT,
  UPLOADS_MAX_PER_USER,
  UPLOADS_DEADLINE_MS,
  UPLOADS_IDLE_MS,
  UPLOADS_MAX_DECODING,
}))(gatewayEnv);

/**
 * Starts the app on a free port with the gateway's HTTP set-up. `env` holds upload variables (UPLOADS_DIR, S3_*,
 * UPLOADS_MAX_*, UPLOADS_DEADLINE_MS, UPLOADS_IDLE_MS); `storage`, when given, replaces the storage they would choose (e.g. MinIO against s3rver).
 */
export async function startUploadApp(env: Record<string, string>, storage?: ObjectStorage): Promise<UploadTestApp> {
  const config = parseEnvOrThrow(UPLOADS_ENV, env);
  let builder = Test.createTestingModule({
    controllers: [ThingsController, UploadsController],
    providers: [{ provide: GATEWAY_CONFIG, useValue: config }, ...UPLOADS_PROVIDERS],
  });
  if (storage) builder = builder.overrideProvider(ObjectStorage).useValue(storage);
  const moduleRef = await builder.compile();
  // The same HTTP set-up as create-gateway.ts: no Nest body parser, our JSON parser, /api prefix, the error filter.
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  app.use((req: Request & { user?: unknown }, _res: Response, next: NextFunction) => {
    const user = req.headers[TEST_USER_HEADER];
    if (typeof user === 'string') req.user = { user_id: user, role: 'regular', token_version: 0 };
    next();
  });
  app.use(...jsonBody());
  app.setGlobalPrefix('api');
  app.useGlobalFilters(new AllErrorsFilter());
  await app.listen(0, '127.0.0.1');
  return { app, base: await app.getUrl() };
}

type Part = { name: string; value: string } | { name: string; bytes: Buffer; filename: string; type?: string };
export type { Part as FormPart };

/** A multipart form of text fields and files. */
export function form(parts: Part[]): FormData {
  const data = new FormData();
  for (const part of parts) {
    if ('value' in part) data.append(part.name, part.value);
    else data.append(part.name, new Blob([part.bytes], { type: part.type ?? 'image/png' }), part.filename);
  }
  return data;
}
