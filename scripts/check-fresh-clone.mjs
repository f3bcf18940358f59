// CI: proves the README's first command works for a newcomer: a fresh clone of HEAD runs `npm ci && npm start` on an
// isolated database and NATS/Redis namespaces, answers, takes a demo buyer's bid, and stops cleanly on Ctrl+C.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { portAnswers } from './lib/infra.mjs';
import { dropIsolated, isolatedSystemEnv, ROOT, SERVICES } from './lib/system.mjs';

const PORT = Number(process.env.FRESH_CLONE_PORT ?? 3940);
const START_DEADLINE_MS = Number(process.env.FRESH_CLONE_TIMEOUT_MS ?? 10 * 60_000);
const STOP_DEADLINE_MS = 15_000;
const PORTS = [PORT, ...SERVICES.map(([, offset]) => PORT + offset)];
const began = Date.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const timeout = (ms, value) => new Promise((r) => setTimeout(() => r(value), ms).unref()); // never holds the process open

/** Prints one check's result line and returns whether it passed. */
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  return ok;
}

/** Like report(), but a failure throws so the run stops and cleans up. */
function check(ok, what, detail = '') {
  if (!report(ok, what, detail)) throw new Error(`${what}${detail ? `: ${detail}` : ''}`);
}

/** The README's first command: the first line of its first bash block, without the trailing comment. */
function readmeFirstCommand(dir) {
  const match = /```bash\n([^\n]*)/.exec(readFileSync(join(dir, 'README.md'), 'utf8'));
  const command = match?.[1].replace(/\s+#.*$/, '').trim();
  if (!command) throw new Error('README.md has no bash block with a first command');
  return command;
}

/** fn()'s result, or `fallback` when it throws (a process that ended meanwhile). */
function attempt(fn, fallback) {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** Every live process as pid -> { ppid, pgid, start } (start time tells a reused pid apart), read from /proc. */
function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = attempt(() => readFileSync(`/proc/${name}/stat`, 'utf8'), '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (stat && fields[0] !== 'Z') table.set(Number(name), { ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] });
  }
  return table;
}

/** The process `root` and everything under it or in its process group, as "pid:start" keys. */
function processTree(root) {
  const table = processTable();
  const found = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, info] of table) {
      if (!found.has(pid) && (found.has(info.ppid) || info.pgid === root)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found].filter((pid) => table.has(pid)).map((pid) => `${pid}:${table.get(pid).start}`);
}

/** The keys of processTree() output that are still alive. */
function survivors(keys) {
  const table = processTable();
  return keys.filter((key) => {
    const [pid, start] = key.split(':');
    return table.get(Number(pid))?.start === start;
  });
}

/** Fetches a JSON answer from the clone's gateway: { status, body }. */
async function api(method, path, { token, json } = {}) {
  const response = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

/** Logs in as the printed demo buyer and places the minimum next bid on a live demo auction of someone else's. */
async function bidAsDemoBuyer(dir, output) {
  const demo = [...output.matchAll(/Demo user: (\S+) \((\S+)\) \/ (\S+)/g)].find((m) => m[1].includes('buyer'));
  check(Boolean(demo), 'npm start printed the demo buyer', demo ? `${demo[1]} (${demo[2]})` : 'no "Demo user: ...buyer" line');
  const login = await api('POST', '/api/auth/login', { json: { login: demo[2], password: demo[3] } });
  check(login.status === 200 && Boolean(login.body.access_token), 'demo buyer logs in', `HTTP ${login.status}`);
  const token = login.body.access_token;
  const browse = await api('GET', '/api/listings?listing_type=auction&limit=100');
  const soon = Date.now() + 5 * 60_000;
  const live = (browse.body.listings ?? []).filter((l) => l.status === 'active' && l.seller_id !== login.body.user.id && !(Date.parse(l.expires_at) < soon));
  check(live.length > 0, 'a live demo auction by another seller is listed', `${live.length} of ${browse.body.total ?? '?'} auctions`);
  const listing = live[0];
  // The rule itself (D6), from the domain lib the clone's npm start just built.
  const { minimumNextBid } = createRequire(import.meta.url)(join(dir, 'libs/domain/dist/index.js'));
  let amount = minimumNextBid(listing.starting_price, listing.current_bid);
  let placed;
  for (let tries = 0; tries < 20; tries += 1) {
    placed = await api('POST', '/api/bids', { token, json: { listing_id: listing.id, amount } });
    // Browse learns prices from events a moment after the seeded bids: the refusal names the real minimum (D6).
    const floor = placed.status === 400 ? /at least \$([\d,]+)/.exec(String(placed.body?.detail ?? '')) : null;
    if (floor) amount = Number(floor[1].replace(/,/g, ''));
    else if (placed.status !== 404) break;
    else await sleep(500); // the bidding service learns of auctions from events
  }
  check(placed.status === 201, `bid of $${amount} (the minimum next bid) on "${listing.title}" answers 201`, `HTTP ${placed.status} ${placed.status === 201 ? '' : JSON.stringify(placed.body)}`);
  const history = await api('GET', `/api/listings/${listing.id}/bids`);
  const seen = (history.body.bids ?? []).some((bid) => bid.id === placed.body.bid?.id && bid.amount === amount);
  check(history.status === 200 && seen, 'the bid shows in GET /api/listings/{id}/bids', `HTTP ${history.status}`);
}

/** Waits until `predicate()` is true or the deadline passes; returns whether it became true. */
async function waitUntil(predicate, deadline) {
  while (Date.now() < deadline) {
    if (await predicate()) return true;
    await sleep(200);
  }
  return predicate();
}

/** Runs every step, recording in `state` what main() must clean up whatever happens here. */
async function run(state) {
  const busy = (await Promise.all(PORTS.map(async (p) => ((await portAnswers('127.0.0.1', p)) ? p : null)))).filter(Boolean);
  check(busy.length === 0, `ports ${PORTS[0]}-${PORTS.at(-1)} are free`, busy.length ? `in use: ${busy.join(', ')}` : '');
  state.dir = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
  execFileSync('git', ['clone', '--quiet', ROOT, state.dir], { stdio: 'inherit' });
  check(true, 'cloned HEAD', `${execFileSync('git', ['-C', state.dir, 'rev-parse', '--short', 'HEAD']).toString().trim()} into ${state.dir}`);
  const command = readmeFirstCommand(state.dir);
  const env = isolatedSystemEnv('freshclone', PORT);
  for (const name of ['DATA_DIR', 'SEED_DEMO']) delete env[name]; // a newcomer's defaults: ./data, build, seed
  env.NX_CACHE_DIRECTORY = join(state.dir, '.nx/cache'); // a newcomer's cold build, not this machine's shared Nx cache
  state.env = env;
  console.log(`Running \`${command}\` (database ${new URL(env.DATABASE_URL).pathname.slice(1)}, port ${PORT})`);
  const child = spawn('bash', ['-c', command], { cwd: state.dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  state.child = child;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let output = '';
  let pending = '';
  const ready = new Promise((resolve) => {
    const echo = (chunk) => {
      output += chunk;
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) console.log(`  [fresh] ${line}`);
      if (/is running at/.test(output) && /Press Ctrl\+C/.test(output)) resolve('ready');
    };
    child.stdout.setEncoding('utf8').on('data', echo);
    child.stderr.setEncoding('utf8').on('data', echo);
  });
  const outcome = await Promise.race([ready, exited.then((e) => `exited (${e.signal ?? `code ${e.code}`})`), timeout(START_DEADLINE_MS, 'timed out')]);
  check(outcome === 'ready', '`npm start` says it is running', `${outcome} after ${Math.round((Date.now() - began) / 1000)} s`);
  const readyz = await api('GET', '/readyz');
  check(readyz.status === 200, 'GET /readyz answers 200', `HTTP ${readyz.status}`);
  await bidAsDemoBuyer(state.dir, output);

  const tree = (state.tree = processTree(child.pid));
  console.log(`Sending SIGINT to process group ${child.pid} (${tree.length} processes)`);
  const signalled = Date.now();
  process.kill(-child.pid, 'SIGINT');
  const exit = await Promise.race([exited, timeout(STOP_DEADLINE_MS, null)]);
  const after = exit ? `${exit.signal ? `killed by ${exit.signal}` : `code ${exit.code}`} after ${((Date.now() - signalled) / 1000).toFixed(1)} s` : 'still running after 15 s';
  const exitedCleanly = report(exit?.code === 0, 'npm exits with code 0 after Ctrl+C', after);
  const deadline = signalled + STOP_DEADLINE_MS;
  const gone = await waitUntil(() => survivors(tree).length === 0 && processTree(child.pid).length === 0, deadline);
  report(gone, 'every process npm start started is gone within 15 s', gone ? `${tree.length} processes` : `alive: ${survivors(tree).join(', ')}`);
  const closed = await waitUntil(async () => !(await Promise.all(PORTS.map((p) => portAnswers('127.0.0.1', p)))).some(Boolean), deadline);
  report(closed, 'nothing listens on its ports any more', PORTS.join(', '));
  if (!exitedCleanly || !gone || !closed) throw new Error('Ctrl+C did not stop `npm start` cleanly (see FAIL lines above)');
}

/** Kills whatever is left of the child's process group and recorded tree, drops the database and stream, removes the clone. */
async function cleanUp(state) {
  const pids = [...(state.child ? [-state.child.pid] : []), ...(state.tree ? survivors(state.tree).map((key) => Number(key.split(':')[0])) : [])];
  for (const pid of pids) attempt(() => process.kill(pid, 'SIGKILL'));
  await sleep(500);
  if (state.env) await dropIsolated(state.env).then(() => console.log('Dropped the isolated database and stream'), (e) => console.error(`Cleanup: ${e.message}`));
  if (state.dir && existsSync(state.dir)) rmSync(state.dir, { recursive: true, force: true });
}

/** Runs the check, always cleans up (also when the check itself is interrupted), and sets the exit code. */
async function main() {
  const state = {};
  const interrupted = () => {
    console.error('Interrupted: stopping the fresh clone and cleaning up'); // it runs detached: never leave it behind
    void cleanUp(state).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  let failure = null;
  try {
    await run(state);
  } catch (error) {
    failure = error;
  }
  await cleanUp(state);
  const seconds = Math.round((Date.now() - began) / 1000);
  if (failure) {
    console.error(`Fresh-clone check FAILED after ${seconds} s: ${failure.message}`);
    process.exit(1);
  }
  console.log(`Fresh-clone check passed in ${seconds} s`);
}

await main();
