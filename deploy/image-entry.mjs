// The image's entry point (ADR 0053): one image holds every app, and `docker run site-market/app <app> [migrate]`
// picks one. The first argument names the app (env APP when no argument does), the rest goes to its main:
// `auth-service` serves, `auth-service migrate` applies the schema's migrations and exits. Runs the same from a
// checkout once the apps are built: node deploy/image-entry.mjs auth-service migrate
import { existsSync, readdirSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const APP_NAME = /^[a-z][a-z0-9-]*$/;
const mainOf = (app) => join(ROOT, 'apps', app, 'dist', 'main.js');
/** The apps this image (or checkout) can run: every apps/<name> with a built dist/main.js. */
const runnable = () => readdirSync(join(ROOT, 'apps')).filter((app) => APP_NAME.test(app) && existsSync(mainOf(app))).sort();

let args = process.argv.slice(2);
if ((args.length === 0 || args[0] === 'migrate') && process.env.APP) args = [process.env.APP, ...args];
const [app, ...rest] = args;
if (!app || !APP_NAME.test(app) || !existsSync(mainOf(app))) {
  const what = app ? `unknown app "${app}"` : 'no app given';
  process.stderr.write(`${what}: run one of ${runnable().join(', ')} (e.g. "auth-service", or "auth-service migrate")\n`);
  process.exit(2);
}

// As PID 1 in a container a signal without a handler is ignored, so a process still starting (waiting for its
// migrations or dependencies) would sit out the whole grace period. Until the app installs its own handlers (which
// drain first, ADR 0050) and after they have run once, these end it at once with the usual 128+signal code.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
  });
}

// The app's main reads its command from process.argv as if started directly: node apps/<app>/dist/main.js [migrate].
process.argv = [process.argv[0], mainOf(app), ...rest];
await import(pathToFileURL(mainOf(app)).href);
