// What the manifest check needs to know about the apps (ADR 0052), read from the sources so it follows the code: which
// apps run as processes, which of them hold a PostgreSQL pool, and the defaults of the variables it budgets with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './system.mjs';
import { filesUnder } from './files-under.mjs';

/** The zod default of `name` in a TypeScript config source (`NAME: z....default(10_000)`); throws when it moved. */
export function defaultIn(path, name) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const match = new RegExp(`\\b${name}:[^\\n]*\\.default\\(([\\d_]+)\\)`).exec(text);
  if (!match) throw new Error(`cannot find the default of ${name} in ${path} (the manifest check reads it from there)`);
  return Number(match[1].replaceAll('_', ''));
}

/**
 * The apps (folders of apps/ with a `src/main.ts`), those of them that hold a database pool (their config spreads the
 * kit's `serviceEnv`, which carries DATABASE_URL and DB_POOL_SIZE; the gateway's does not), and the defaults.
 */
export function appFacts() {
  const apps = filesUnder('apps', /^main\.ts$/)
    .map((path) => /apps\/([^/]+)\/src\/main\.ts$/.exec(path)?.[1])
    .filter(Boolean)
    .sort();
  const usesDatabase = (app) =>
    filesUnder(join('apps', app, 'src'), /\.ts$/)
      .filter((path) => !/\.(int-)?spec\.ts$/.test(path))
      .some((path) => /\bserviceEnv\b/.test(readFileSync(path, 'utf8')));
  return {
    apps,
    databaseApps: apps.filter(usesDatabase),
    defaults: {
      DB_POOL_SIZE: defaultIn('libs/server-kit/src/config/database-env.ts', 'DB_POOL_SIZE'),
      SHUTDOWN_DELAY_MS: defaultIn('libs/server-kit/src/config/env.ts', 'SHUTDOWN_DELAY_MS'),
      DRAIN_TIMEOUT_MS: defaultIn('libs/server-kit/src/config/env.ts', 'DRAIN_TIMEOUT_MS'),
    },
  };
}
