// Builds the workspace through Nx before anything loads built output: an unchanged tree is a cache hit (about a
// second), a changed one is rebuilt, so no script ever runs a stale or missing build.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const require = createRequire(import.meta.url);
let built = false;

/**
 * Runs `nx run-many -t build` once per process (Nx decides what is stale); throws when the build fails. With `toStderr`
 * Nx's output goes to stderr, for scripts whose stdout is their product (`npm run nats-config`).
 */
export function buildWorkspace(log = console.log, { toStderr = false } = {}) {
  if (built) return;
  // Without Nx's daemon even a full cache hit rewrites every dist file in place, so a process another test starts at
  // that moment can load a half-written module. A test that starts the system beside others says the build is done.
  if (process.env.SKIP_BUILD === 'true') {
    built = true;
    return;
  }
  log('Building (Nx: unchanged projects come from its cache)...');
  const result = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--parallel=2', '--outputStyle=static'], {
    cwd: ROOT,
    stdio: ['ignore', toStderr ? 2 : 'inherit', 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
  if (result.status !== 0) throw new Error('Build failed');
  built = true;
}

/** Loads a built module (path from the repository root), building the workspace first if this process has not. */
export function loadBuilt(path, log) {
  buildWorkspace(log);
  return require(join(ROOT, path));
}

/** The one bid rule (D6) from the built domain lib, loaded on first use. */
export function minimumNextBid(startingPrice, currentBid) {
  return loadBuilt('libs/domain/dist/index.js').minimumNextBid(startingPrice, currentBid);
}

/** The bid increment for a price (D6) from the built domain lib, loaded on first use. */
export function bidIncrement(currentPrice) {
  return loadBuilt('libs/domain/dist/index.js').bidIncrement(currentPrice);
}
