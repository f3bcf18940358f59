// Phase S of npm run bench:bids: what the bus's cryptography costs a bid (ADR 0065, 0066: every request and reply
// sealed with crypto_box, which also proves its sender to its one reader; every event signed with Ed25519). Phase C's workload (each bidder on two auctions
// of its own, so no lost races) on two isolated systems side by side in one run: one as production runs it
// (BUS_CHECKS=on) and one with BUS_CHECKS=off (signatures are random text, every check passes, nothing is sealed). The
// storms alternate between them, on, off, on, off, ..., each after a CHECKPOINT, so the machine's noise and drift fall
// on both; each storm's CPU is read from /proc for every process of the system that ran it (the ownCpu way of phase C),
// and the end state is checked in PostgreSQL after each. A process refuses BUS_CHECKS=off outside NODE_ENV=test, so
// both systems run with NODE_ENV=test.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { loadBuilt } from './build.mjs';
import { dropIsolated, isolatedSystemEnv, SERVICES, startSystem } from './system.mjs';
import { countCpu, machineBusySeconds, systemCpuGroups } from './process-cpu.mjs';
import { apiClient, createAuctions, registerAccounts, registerBidders, stormPhase, waitForAuctions } from './bid-storm.mjs';
import { checkEndState } from './bid-checks.mjs';
import { checkpoint } from './bid-overhead.mjs';

/** The group of systemCpuGroups that is this process, the load generator: the same work on and off, not the system's. */
export const LOAD_GENERATOR = 'load generator';

/**
 * What one operation of the bus's cryptography costs on this machine, in µs, through server-kit's own code (ADR 0065,
 * 0066): an Ed25519 signature and its check of a 600-byte message (an event), and sealing it as a request for one
 * reader and taking it (a request's or a reply's whole cryptography). Measured
 * in this process before the systems start, so the figures of the storms can be read as so many operations per bid.
 */
export async function measureBusPrimitives({ iterations = 2000 } = {}) {
  const kit = loadBuilt('libs/server-kit/dist/index.js');
  await kit.busCryptoReady();
  const { signingKeys, publicKeys } = kit.generateBusKeys();
  const identity = (party) => kit.busIdentity(party, { BUS_SIGNING_KEY: signingKeys[party], BUS_PUBLIC_KEYS: publicKeys, BUS_CHECKS: 'on' });
  const gateway = identity('gateway');
  const bidding = identity('bidding-service');
  const message = new Uint8Array(randomBytes(600));
  const signature = gateway.signer.sign(message);
  const [subject, inbox] = ['bids.place', '_INBOX.bench.1'];
  const sealed = () => kit.sealRequest(gateway.signer, gateway.keys, 'bidding-service', subject, inbox, Date.now() + 60_000, message);
  const request = sealed().bytes;
  const time = (operation) => {
    for (let i = 0; i < iterations / 10; i += 1) operation();
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i += 1) operation();
    return Number(process.hrtime.bigint() - started) / 1e3 / iterations;
  };
  const result = {
    signUs: time(() => gateway.signer.sign(message)),
    verifyUs: time(() => {
      if (!bidding.keys.verify('gateway', message, signature)) throw new Error('the signature did not verify');
    }),
    sealUs: time(sealed),
    openUs: time(() => {
      if ('problem' in kit.takeRequest(bidding.signer, bidding.keys, subject, inbox, request)) throw new Error('the sealed request was not taken');
    }),
  };
  return result;
}

/** Seconds of the unmeasured storm each system gets before the measured ones. */
export const warmUpSeconds = (seconds) => Math.min(5, seconds);

/** True for the groups that are the system's own processes (its gateway and services), not shared servers or the load generator. */
export const ownProcess = (label) => label === 'gateway' || SERVICES.some(([name]) => name === label);

/** The median of numbers (the mean of the middle two for an even count); null for none. */
export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The storms of each side summed up: medians of accepted bids/s, p50, p99 and the system's CPU per accepted bid (every
 * process but the load generator), and each process's median CPU per accepted bid.
 */
export function summarizeSide(runs) {
  const labels = runs[0]?.cpu.map((group) => group.label) ?? [];
  return {
    storms: runs.length,
    acceptedPerSecond: median(runs.map((run) => run.phase.acceptedPerSecond)),
    p50: median(runs.map((run) => run.phase.p50)),
    p99: median(runs.map((run) => run.phase.p99)),
    systemUs: median(runs.map((run) => run.systemUs)),
    ownUs: median(runs.map((run) => run.ownUs)),
    elsewhereCores: median(runs.map((run) => run.elsewhereCores)),
    loadUs: median(runs.map((run) => run.loadUs)),
    byGroup: labels.map((label) => ({ label, perRequestUs: median(runs.map((run) => run.cpu.find((group) => group.label === label)?.perRequestUs ?? 0)) })),
    accepted: runs.reduce((sum, run) => sum + run.phase.accepted.length, 0),
    serverErrors: runs.reduce((sum, run) => sum + run.phase.serverErrors, 0),
  };
}

/**
 * Both sides' figures from the storms (each `{round, checks: 'on' | 'off', phase, systemUs, ...}`): the medians, the
 * ratio of accepted bids/s on to off (the cost is 1 - ratio), each round's own cost (its spread), and what the
 * cryptography adds to the system's CPU per accepted bid.
 */
export function compareSides(runs) {
  const on = summarizeSide(runs.filter((run) => run.checks === 'on'));
  const off = summarizeSide(runs.filter((run) => run.checks === 'off'));
  const ratio = on.acceptedPerSecond / off.acceptedPerSecond;
  const rounds = [...new Set(runs.map((run) => run.round))].sort((a, b) => a - b);
  const roundCosts = rounds.map((round) => {
    const of = (checks) => runs.find((run) => run.round === round && run.checks === checks)?.phase.acceptedPerSecond;
    return 1 - of('on') / of('off');
  });
  return {
    on, off, ratio, cost: 1 - ratio, roundCosts,
    cpuAddedUs: on.systemUs - off.systemUs, cpuShare: 1 - off.systemUs / on.systemUs,
    ownAddedUs: on.ownUs - off.ownUs,
  };
}

/** A side of phase S: the environment of its system, with BUS_CHECKS `checks`; setUp starts it. */
function newSide({ baseEnv, port, checks, bidders }) {
  const env = { ...baseEnv, ...isolatedSystemEnv(`benchsig${checks}`, port), NODE_ENV: 'test', BUS_CHECKS: checks };
  const connect = () => apiClient(`http://127.0.0.1:${port}`, bidders + 8);
  return { checks, env, system: null, connect, api: connect(), pool: null, accepted: [], checksAfter: null };
}

/**
 * Closes a side's keep-alive connections after a storm and opens new ones for the next: a socket left idle about as
 * long as the gateway keeps it (Node's 5 s) may be closed by the gateway just as a bidder sends on it, a request
 * without an answer that the system is not to blame for.
 */
function reconnect(side) {
  side.api.close();
  side.api = side.connect();
}

/** Refusals without an answer, by reason (a storm's tally), for the log. */
const networkReasons = (phase) =>
  Object.entries(phase.reasons).filter(([reason]) => reason.startsWith('network')).map(([reason, n]) => `${n} × ${reason}`).join('; ');

/** Starts a side's system and sets it up as phase C's: a seller, `bidders` bidders (with ids) and `listings` auctions. */
async function setUp(side, { bidders, listings, startingPrice, log }) {
  const { checks, env } = side;
  const started = Date.now();
  side.system = await startSystem({ env, quiet: true, log: () => {} });
  side.pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
  const adminToken = (await side.api.call('POST', '/auth/login', { login: side.system.admin.email, password: side.system.admin.password })).body?.access_token;
  if (!adminToken) throw new Error(`S (BUS_CHECKS=${checks}): admin login failed`);
  const [sellerToken] = await registerAccounts(side.api, `bs${checks}seller`, 1, adminToken);
  const registered = await registerBidders(side.api, `bs${checks}bidder`, bidders, adminToken);
  side.tokens = registered.map((bidder) => bidder.token);
  side.bidderIds = registered.map((bidder) => bidder.id);
  side.ids = await createAuctions(side.api, { sellerToken, adminToken, count: listings, startingPrice });
  await waitForAuctions(side.api, sellerToken, side.ids);
  // Phase C's pick: bidder i alternates between auctions 2i and 2i + 1 (nobody else bids there).
  const turns = new Map();
  side.own = (bidder) => {
    const turn = (turns.get(bidder) ?? 0) + 1;
    turns.set(bidder, turn);
    return side.ids[(bidder * 2 + (turn % 2)) % side.ids.length];
  };
  reconnect(side);
  log(`S: system with BUS_CHECKS=${checks} up, ${bidders} bidders and ${listings} auctions ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function tearDown(side) {
  side.api.close();
  await side.pool?.end().catch(() => {});
  await side.system?.stop();
  await dropIsolated(side.env).catch(() => {});
}

/**
 * Phase S: `rounds` rounds of a phase C storm on the BUS_CHECKS=on system, then one on the BUS_CHECKS=off system, both
 * systems up throughout (the idle one waits). Returns every storm (in order), the comparison (compareSides), the end-state
 * checks after each side's last storm, and the problems that fail the run (5xx, requests without an answer, a failed check).
 */
export async function measureBusChecks({ baseEnv, port, rounds = 5, bidders, listings, seconds, startingPrice, log }) {
  const sides = [];
  const runs = [];
  const problems = [];
  const primitives = await measureBusPrimitives();
  log(`S: on this machine an Ed25519 signature costs ${primitives.signUs.toFixed(0)} µs, its check ${primitives.verifyUs.toFixed(0)} µs; ` +
    `sealing a 600-byte request ${primitives.sealUs.toFixed(0)} µs, taking it ${primitives.openUs.toFixed(0)} µs`);
  try {
    // Ten ports each (the gateway, health ports at offsets 1-8, its metrics port at 9).
    for (const [i, checks] of ['on', 'off'].entries()) {
      const side = newSide({ baseEnv, port: port + 10 * i, checks, bidders });
      sides.push(side);
      await setUp(side, { bidders, listings, startingPrice, log });
    }
    // A short storm on each system first, not measured: a system's first bids meet cold caches and code V8 has not
    // optimized yet (in trial runs without it, the first storm of each system was the slowest of its side).
    for (const side of sides) {
      const warm = await stormPhase(side.api, { tokens: side.tokens, bidderIds: side.bidderIds, pick: side.own, startingPrice, seconds: warmUpSeconds(seconds) });
      side.accepted.push(...warm.accepted);
      reconnect(side);
      if (warm.serverErrors) problems.push(`S warm-up BUS_CHECKS=${side.checks}: ${warm.serverErrors} 5xx answers`);
      if (warm.networkErrors) problems.push(`S warm-up BUS_CHECKS=${side.checks}: ${warm.networkErrors} requests without an answer (${networkReasons(warm)})`);
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const side of sides) {
        const checkpointed = await checkpoint(side.env.DATABASE_URL, log);
        const cpu = countCpu(systemCpuGroups(side.system));
        const machineBefore = machineBusySeconds();
        const started = Date.now();
        const phase = await stormPhase(side.api, { tokens: side.tokens, bidderIds: side.bidderIds, pick: side.own, startingPrice, seconds });
        const groups = cpu.stop(phase.accepted.length);
        reconnect(side);
        // How busy the whole machine was, and with what the counted processes (and the load generator) did not do: the noise.
        const machineCores = (machineBusySeconds() - machineBefore) / ((Date.now() - started) / 1000);
        const elsewhereCores = Math.max(0, machineCores - groups.reduce((sum, group) => sum + group.core, 0));
        const systemUs = groups.filter((group) => group.label !== LOAD_GENERATOR).reduce((sum, group) => sum + group.perRequestUs, 0);
        const ownUs = groups.filter((group) => ownProcess(group.label)).reduce((sum, group) => sum + group.perRequestUs, 0);
        const loadUs = groups.find((group) => group.label === LOAD_GENERATOR)?.perRequestUs ?? 0;
        side.accepted.push(...phase.accepted);
        const checks = await checkEndState(side.pool, { accepted: side.accepted, listingIds: side.ids });
        side.checksAfter = checks;
        const name = `S round ${round + 1} BUS_CHECKS=${side.checks}`;
        for (const c of checks.filter((c) => !c.ok)) log(`FAIL after ${name}: ${c.name}: ${c.detail}`);
        if (phase.serverErrors) problems.push(`${name}: ${phase.serverErrors} 5xx answers`);
        if (phase.networkErrors) problems.push(`${name}: ${phase.networkErrors} requests without an answer (${networkReasons(phase)})`);
        problems.push(...checks.filter((c) => !c.ok).map((c) => `${name}: check failed: ${c.name}`));
        log(
          `${name}: ${phase.accepted.length} accepted (${Math.round(phase.acceptedPerSecond)}/s), p50 ${Math.round(phase.p50)} p99 ${Math.round(phase.p99)} ms, ` +
            `${phase.serverErrors} 5xx; system CPU ${Math.round(systemUs)} µs per accepted bid ` +
            `(${groups.map((group) => `${group.label} ${Math.round(group.perRequestUs)}`).join(', ')}); ` +
            `elsewhere ${elsewhereCores.toFixed(2)} cores; end state ${checks.filter((c) => c.ok).length} of ${checks.length} checks hold`,
        );
        runs.push({ index: runs.length, round, checks: side.checks, phase, cpu: groups, systemUs, ownUs, loadUs, machineCores, elsewhereCores, checkpointed });
      }
    }
  } finally {
    for (const side of sides) await tearDown(side);
  }
  return { runs, primitives, ...compareSides(runs), checks: Object.fromEntries(sides.map((side) => [side.checks, side.checksAfter])), problems };
}
