import type { INestApplication } from '@nestjs/common';

/** The base URL of a Nest app listening on an ephemeral port. */
export async function baseUrl(app: INestApplication): Promise<string> {
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

/** Closes Nest apps in reverse order, ignoring ones that failed to start. */
export async function closeAll(...apps: Array<INestApplication | undefined>): Promise<void> {
  for (const app of apps.reverse()) await app?.close();
}
