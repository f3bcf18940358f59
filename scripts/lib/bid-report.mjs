// The docs sections of npm run bench:bids: phases A to D (one table against the ceilings), E (proxy bids on one hot
// auction), F (thousands of websocket viewers), G (two bidding replicas against one) and S (the bus's signatures and
// seals on and off). Each section is replaced on its own, so a run of some phases leaves the others' figures as they were.
import os from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { percentile } from './bid-storm.mjs';

/** The headings of the sections this benchmark writes (each replaced on its own). */
export const HEADINGS = {
  ad: '## Bids (npm run bench:bids)',
  e: '## Bids E: proxy bids on one hot auction (npm run bench:bids)',
  f: '## Bids F: thousands of websocket viewers (npm run bench:bids)',
  g: '## Bids G: two bidding replicas against one (npm run bench:bids)',
  s: '## Bids S: the bus\'s signatures and seals on and off (npm run bench:bids)',
};

/** Milliseconds as printed: one decimal below 10. */
export const ms = (value) => (value === null || value === undefined ? '-' : value < 10 ? value.toFixed(1) : String(Math.round(value)));
const pct = (value) => `${Math.round(100 * value)}%`;
const verdict = (ok) => (ok ? 'met' : 'missed');
const machine = () => `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}`;
/** The end-state checks as one sentence. */
export const checksLine = (checks) => checks.map((c) => `${c.name}: ${c.ok ? 'yes' : '**NO**'} (${c.detail})`).join('; ');

/**
 * Delivery of new_bid frames to the viewers (startViewers' byBid), against the bidders' 2xx answers for the same bid
 * ids: how many of the frames owed (sockets x accepted bids) arrived, and receipt minus the 2xx answer's time.
 */
export function deliveryStats(viewers, frames, accepted) {
  if (!viewers.available) return { available: false, reason: viewers.reason };
  const sinceAnswer = [];
  const sinceSent = [];
  const ids = new Set();
  for (const bid of accepted) {
    if (ids.has(bid.id)) continue;
    ids.add(bid.id);
    for (const receivedAt of frames.byBid.get(bid.id) ?? []) {
      sinceAnswer.push(receivedAt - bid.answeredAt);
      sinceSent.push(receivedAt - bid.sentAt);
    }
  }
  let unknown = 0;
  for (const [bidId, times] of frames.byBid) if (!ids.has(bidId)) unknown += times.length;
  sinceAnswer.sort((a, b) => a - b);
  sinceSent.sort((a, b) => a - b);
  return {
    available: true,
    sockets: frames.open,
    closedEarly: frames.closedEarly,
    duplicates: frames.duplicates,
    expected: frames.open * ids.size,
    delivered: sinceAnswer.length,
    unknown,
    p50: percentile(sinceAnswer, 50),
    p95: percentile(sinceAnswer, 95),
    p99: percentile(sinceAnswer, 99),
    sentP50: percentile(sinceSent, 50),
    sentP95: percentile(sinceSent, 95),
  };
}

/** Replaces the docs section that starts with `heading` (up to the next level-2 heading), or appends it. */
export function writeSection(file, heading, text) {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}[\\s\\S]*?(?=\\n## (?!#)|$)`);
  writeFileSync(file, pattern.test(current) ? current.replace(pattern, () => text) : `${current.trimEnd()}\n\n${text}`);
}

/**
 * C's CPU per accepted bid by process, against what the ceiling's transaction may cost at most (two cores spent on it
 * alone): the table that says why C reaches the share of the ceiling it does.
 */
function cpuLines(cpu, ceilingPerSecond) {
  if (!cpu) return [];
  const total = cpu.reduce((sum, group) => sum + group.perRequestUs, 0);
  const shown = cpu.filter((group) => group.perRequestUs >= 10);
  return [
    'CPU per accepted bid in C, µs, from /proc over the storm (PostgreSQL, NATS and Redis are this machine\'s shared servers):',
    '',
    `| ${shown.map((group) => group.label).join(' | ')} | total |`,
    `| ${shown.map(() => '---:').join(' | ')} | ---: |`,
    `| ${shown.map((group) => Math.round(group.perRequestUs)).join(' | ')} | ${Math.round(total)} |`,
    '',
    `The ceiling's transaction costs at most ${Math.round(2e6 / ceilingPerSecond)} µs of CPU (two cores at ${Math.round(ceilingPerSecond)} tx/s); ` +
      `end to end an accepted bid costs ${Math.round(total)} µs, so on these two cores C can reach about ${pct(2e6 / ceilingPerSecond / total)} of the ceiling ` +
      'unless the path itself costs less.',
    '',
  ];
}

export function sectionAD(s, { date, phases, ceiling, delivery, checks, ownCpu = null }) {
  const { hot, spread, own, paced } = phases;
  const phaseRow = (name, listings, phase, roof) =>
    `| ${name} | ${s.bidders} | ${listings} | ${Math.round(phase.requestsPerSecond)} | ${Math.round(phase.acceptedPerSecond)} | ` +
    `${ms(phase.p50)} | ${ms(phase.p99)} | ${ms(phase.acceptedP50)} | ${ms(phase.acceptedP99)} | ${phase.clientErrors} | ${phase.serverErrors} | ` +
    `${Math.round(roof.perSecond)} | ${pct(phase.acceptedPerSecond / roof.perSecond)} | ${pct(phase.requestsPerSecond / roof.perSecond)} |`;
  const reasons = (phase) =>
    Object.entries(phase.reasons)
      .sort((a, b) => b[1] - a[1])
      .map(([reason, n]) => `${n} × ${reason}`)
      .join('; ') || 'none';
  const ownShare = own.acceptedPerSecond / ceiling.spread.perSecond;
  const closedP99 = Math.max(hot.p99, spread.p99, own.p99);
  const wsLine = delivery.available
    ? `**${verdict(delivery.p95 < s.targets.wsP95Ms)}** (p95 ${ms(delivery.p95)} ms; ${delivery.delivered} of ${delivery.expected} frames ` +
      `delivered to ${delivery.sockets} sockets${delivery.closedEarly ? `, ${delivery.closedEarly} closed early` : ''})`
    : `**not measured**: the live feed was not available (${delivery.reason})`;
  return [
    HEADINGS.ad,
    '',
    `${date}. ${machine()}; every service, PostgreSQL, Redis, NATS and the`,
    'load generator on this one machine. An isolated system (own database, stream and keys; rate limits off), one replica of',
    `each service. ${s.bidders} bidders, each on one keep-alive connection, ${s.seconds} s per phase. A bidder bids the smallest next bid`,
    `it knows (D6, starting price $${s.startingPrice}) and learns the real one from each answer: 201 \`current_bid\`, or a 400`,
    "'Bid must be at least $X' (a lost race). Phases: **A** one hot auction" +
      `${delivery.available ? ` with ${delivery.sockets} websocket viewers on it` : ''}; **B** ${s.listings} auctions, each request on a random one;`,
    '**C** each bidder on two auctions of its own (nobody else bids there, so every bid is accepted); **D** as B, but each',
    `bidder sends one bid every ${s.paceMs} ms (${Math.round((s.bidders * 1000) / s.paceMs)} bids/s offered), as people with think time would. A to C are closed loops: the next request`,
    'leaves as soon as the last is answered, so they measure saturation.',
    '"Ceiling": the service\'s own transaction (lock the auction; insert the bid, update the auction and append the outbox row in one statement)',
    `run from ${s.bidders} pg connections directly on a scratch copy of the tables for ${s.ceilingSeconds} s, in the same run, on one hot auction`,
    `(${Math.round(ceiling.hot.perSecond)} tx/s, p50 ${ms(ceiling.hot.p50)}, p99 ${ms(ceiling.hot.p99)} ms) and over ${s.listings} auctions (${Math.round(ceiling.spread.perSecond)} tx/s,`,
    `p50 ${ms(ceiling.spread.p50)}, p99 ${ms(ceiling.spread.p99)} ms); every one of its transactions is an accepted bid.`,
    '',
    '| phase | bidders | auctions | requests/s | accepted bids/s | p50 ms | p99 ms | accepted p50 | accepted p99 | 4xx | 5xx | ceiling tx/s | accepted / ceiling | requests / ceiling |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    phaseRow('A: one hot auction', 1, hot, ceiling.hot),
    phaseRow(`B: ${s.listings} auctions`, s.listings, spread, ceiling.spread),
    phaseRow('C: own auctions, no races', Math.min(s.listings, s.bidders * 2), own, ceiling.spread),
    phaseRow(`D: as B, one bid per ${s.paceMs} ms each`, s.listings, paced, ceiling.spread),
    '',
    `4xx by reason, A: ${reasons(hot)}. B: ${reasons(spread)}. C: ${reasons(own)}. D: ${reasons(paced)}.`,
    '',
    delivery.available
      ? `Websocket delivery (phase A, ${delivery.sockets} viewers): a new_bid frame's receipt time minus the time its bidder got the 2xx ` +
        `answer: p50 ${ms(delivery.p50)}, p95 ${ms(delivery.p95)}, p99 ${ms(delivery.p99)} ms (negative when the frame beats the answer); ` +
        `minus the time the bid was sent: p50 ${ms(delivery.sentP50)}, p95 ${ms(delivery.sentP95)} ms.`
      : `Websocket delivery: not available (${delivery.reason}).`,
    '',
    ...cpuLines(ownCpu, ceiling.spread.perSecond),
    `End state (PostgreSQL), checked after every phase; after D: ${checksLine(checks)}.`,
    '',
    'A bid the auction\'s current price already rules out is refused before the row lock is taken; every other request is',
    'decided under the lock. With everybody chasing the same price (A, B), each accepted bid makes the other bidders\'',
    'next bids stale, so most requests are lost races: accepted bids/s there is set by the race, not by the system.',
    'C is the like-for-like comparison with the ceiling, whose transactions are all accepted bids.',
    '',
    'Where the time goes (CPU of every process over a C storm, from /proc, and `NODE_EXEC_ARGS=--cpu-prof` profiles): the',
    'ceiling has PostgreSQL to itself, while end to end every accepted bid also crosses the gateway, NATS, the bidding',
    'service, the outbox relay and the listings and notifications consumers on the same two cores (CPU per accepted bid',
    'by process in the table above; see also "Bidding engine v2: reading the figures"). Changes made from the',
    'profiles: the gateway verified tokens with a string secret that jsonwebtoken first tried to parse as a PEM key on every',
    'request (a quarter of its CPU); bids the current price rules out are refused before the lock; bidder names are',
    'remembered for 5 minutes; bids of one auction are decided in batches under one lock (ADR 0058); identity states are',
    'kept in memory and the services\' RPC runs on nats.js (ADR 0057); a bid\'s unlocked reads are shared by the bids of a',
    'turn of the event loop, a batch is one read and one write after its lock, the relay and the consumers write a batch',
    'at a time, and NATS connections write once per turn (ADR 0062).',
    'Left: more replicas on more cores (section G: on two cores a second replica adds no CPU).',
    '',
    `Targets: end to end >= ${s.targets.share * 100}% of the ceiling **${verdict(ownShare >= s.targets.share)}** (C: ${pct(ownShare)} in accepted bids; ` +
      `in requests A ${pct(hot.requestsPerSecond / ceiling.hot.perSecond)}, B ${pct(spread.requestsPerSecond / ceiling.spread.perSecond)}); ` +
      `p99 < ${s.targets.p99Ms} ms at ${s.bidders} concurrent bidders **${verdict(paced.p99 < s.targets.p99Ms)}** with think time (D: ${ms(paced.p99)} ms) ` +
      `and **${verdict(closedP99 < s.targets.p99Ms)}** in the closed loops (A ${ms(hot.p99)}, B ${ms(spread.p99)}, C ${ms(own.p99)} ms: ${s.bidders} requests always in flight ` +
      `queue behind each other on two cores); websocket delivery p95 < ${s.targets.wsP95Ms} ms with ${s.viewers} viewers ${wsLine}; no 5xx **met**.`,
    '',
  ].join('\n');
}


/** Phase E: decided bids/s on one hot auction with proxy maximums, against the single-row and the service-transaction ceilings. */
export function sectionE(s, { date, phase, ceiling, checks }) {
  const reasons = Object.entries(phase.reasons).sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} × ${reason}`).join('; ') || 'none';
  return [
    HEADINGS.e,
    '',
    `${date}. ${machine()}; the same isolated system as the Bids section, in the same run. ${s.bidders} bidders on one fresh automatic`,
    `auction for ${s.seconds} s, closed loop. Each request is \`POST /api/bids\` with an amount of the smallest next bid the bidder knows plus 0 to`,
    `${s.eSteps} increments and a \`max_amount\` 0 to ${s.eSteps * 2} increments above it (D6 increments from the built libs/domain, ADR 0055);`,
    'a bidder its last answer said leads raises its maximum instead (the current price as amount, a higher `max_amount`). Bidders',
    "learn from every answer: 201 `current_bid` and `leading`, 400 'at least $X' (outbid) or 'already $X' (its maximum).",
    'Every request carries a maximum, and the bidding service refuses early (before the row lock) only plain bids the',
    "price already rules out, so each 201 and each of these 400s is **decided under the auction's row lock**: decided",
    'bids/s counts both. A 503 with Retry-After (a full per-auction queue) is counted apart, and the bidder waits as told;',
    'any other 5xx fails the run. Ceilings, measured in the same run on a scratch copy of this auction\'s row from',
    `${s.bidders} pg connections for ${s.ceilingSeconds} s: **single row** (lock the row and write it back, nothing else: the floor of`,
    'any decision under one lock) and **service transaction** (the bidding service\'s own statements for a plain bid).',
    '',
    '| bidders | requests/s | decided/s | 201/s | 400 under the lock/s | 503 (shed) | other 5xx | p50 ms | p99 ms | single-row tx/s | decided / single row | service tx/s | decided / service tx |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.bidders} | ${Math.round(phase.requestsPerSecond)} | ${Math.round(phase.decidedPerSecond)} | ${Math.round(phase.acceptedPerSecond)} | ` +
      `${Math.round(phase.refused / phase.seconds)} | ${phase.shed} | ${phase.serverErrors} | ${ms(phase.p50)} | ${ms(phase.p99)} | ` +
      `${Math.round(ceiling.singleRow.perSecond)} | ${pct(phase.decidedPerSecond / ceiling.singleRow.perSecond)} | ${Math.round(ceiling.hot.perSecond)} | ${pct(phase.decidedPerSecond / ceiling.hot.perSecond)} |`,
    '',
    `p50 and p99 are of decided requests. Ceilings: single row p50 ${ms(ceiling.singleRow.p50)}, p99 ${ms(ceiling.singleRow.p99)} ms; service transaction p50 ` +
      `${ms(ceiling.hot.p50)}, p99 ${ms(ceiling.hot.p99)} ms. Of the 2xx answers, ${phase.automaticAnswers} told the bidder another maximum outbid them at once; ` +
      `${phase.raises} requests were a leader raising its maximum. Refusals and other answers by reason: ${reasons}.`,
    '',
    `End state (PostgreSQL) after E: ${checksLine(checks)}.`,
    '',
  ].join('\n');
}

/** Phase F: the same paced bids watched by a few hundred and by thousands of sockets on one gateway. */
export function sectionF(s, { date, runs, checks }) {
  const row = (run) =>
    `| ${run.viewers} | ${run.delivery.sockets} | ${Math.round(run.phase.acceptedPerSecond)} | ${run.delivery.expected} | ${run.delivery.delivered} | ` +
    `${run.delivery.duplicates} | ${run.delivery.closedEarly} | ${ms(run.delivery.p50)} | ${ms(run.delivery.p95)} | ${ms(run.delivery.p99)} | ${ms(run.delivery.sentP95)} |`;
  const every = runs.every((run) => run.delivery.delivered === run.delivery.expected && !run.delivery.duplicates && !run.delivery.closedEarly);
  const large = runs.at(-1);
  return [
    HEADINGS.f,
    '',
    `${date}. ${machine()}; the same isolated system, in the same run, one gateway. ${s.fBidders} bidders on one fresh auction,`,
    `each sending one plain bid every ${s.fPaceMs} ms (${Math.round((s.fBidders * 1000) / s.fPaceMs)} bids/s offered) for ${s.seconds} s, watched first by ${runs[0].viewers} and then by`,
    `${large.viewers} websocket viewers of \`/ws/listings/{id}\` (opened ${s.fBatch} handshakes at a time, from up to ${s.fThreads} worker thread(s) of the`,
    'load generator, so their receipt times are not held up by the bidders). All viewers connect from 127.0.0.1: the gateway',
    `caps sockets per address (\`WS_MAX_SOCKETS_PER_ADDRESS\`, default 100) and in all (10,000), so the benchmark sets the cap to ${s.wsCap};`,
    `file descriptors: \`ulimit -n\` is ${s.fdLimit} for the load generator and the gateway alike (each socket costs one on each side).`,
    'Delay: a frame\'s receipt time minus the time its bidder got the 2xx answer (negative when the frame wins). After the',
    'storm the viewers wait until every owed frame has arrived (at most 10 s) before they hang up.',
    '',
    '| viewers asked | sockets open | accepted bids/s | frames owed | delivered | duplicates | closed early | p50 ms | p95 ms | p99 ms | p95 since sent |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...runs.map(row),
    '',
    `Every frame delivered: **${every ? 'yes' : 'NO'}**. Target p95 < ${s.targets.wsP95Ms} ms: **${verdict(runs[0].delivery.p95 < s.targets.wsP95Ms)}** with ${runs[0].viewers} viewers ` +
      `(p95 ${ms(runs[0].delivery.p95)} ms), **${verdict(large.delivery.p95 < s.targets.wsP95Ms)}** with ${large.viewers} (p95 ${ms(large.delivery.p95)} ms).`,
    '',
    `End state (PostgreSQL) after F: ${checksLine(checks)}.`,
    '',
  ].join('\n');
}

/** Phase G: phases B and C with one bidding replica, then two, then one again (the mirrored order cancels drift). */
export function sectionG(s, { date, runs, checks }) {
  const mean = (list, pick) => list.reduce((n, run) => n + pick(run), 0) / list.length;
  const one = runs.filter((run) => run.replicas === 1);
  const two = runs.filter((run) => run.replicas === 2);
  const ratio = (pick) => mean(two, pick) / mean(one, pick);
  const row = (run) =>
    `| ${run.index + 1} | ${run.replicas} | ${Math.round(run.spread.requestsPerSecond)} | ${Math.round(run.spread.acceptedPerSecond)} | ${ms(run.spread.p99)} | ` +
    `${Math.round(run.own.acceptedPerSecond)} | ${ms(run.own.p50)} | ${ms(run.own.p99)} | ${run.spread.serverErrors + run.own.serverErrors} |`;
  return [
    HEADINGS.g,
    '',
    `${date}. ${machine()}; the same isolated system, in the same run. Phases B (${s.bidders} bidders, each request on a random one of`,
    `${s.listings} auctions) and C (each bidder on two auctions of its own) for ${s.seconds} s each, with one bidding-service replica, then with a`,
    'second one started beside it (same NATS queue group, so requests alternate between them, ADR 0017), then with the second',
    'stopped again (SIGTERM: it drains, ADR 0050). The means of the two one-replica runs cancel the drift of a system that',
    'slows as its tables grow. One gateway throughout.',
    '',
    '| run | replicas | B requests/s | B accepted/s | B p99 ms | C accepted/s | C p50 ms | C p99 ms | 5xx |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...runs.map(row),
    '',
    `Two replicas against one: B requests/s × ${ratio((r) => r.spread.requestsPerSecond).toFixed(2)}, B accepted/s × ${ratio((r) => r.spread.acceptedPerSecond).toFixed(2)}, ` +
      `C accepted/s × ${ratio((r) => r.own.acceptedPerSecond).toFixed(2)}; C p99 ${ms(mean(one, (r) => r.own.p99))} → ${ms(mean(two, (r) => r.own.p99))} ms.`,
    '',
    `**What more cores would give.** This machine has ${os.cpus().length} cores, and a storm already keeps both busy: the gateway takes about a`,
    'core, the bidding service about a core, and PostgreSQL, NATS, the outbox relay, the listings consumer and the load',
    'generator share what is left. A second replica here adds no CPU, only a second event loop competing for the same',
    'cores (and more PostgreSQL connections and context switches), so a ratio near 1 or below is what two cores allow, not',
    'what the design allows. With more cores, each replica brings its own core: C, where no two requests want the same',
    'row, should grow close to linearly with bidding replicas until the next single process saturates — the one gateway',
    '(about a core at today\'s rate, so it needs replicas too) — and then PostgreSQL, whose ceiling for the service\'s',
    'transaction over many auctions is in the Bids section (measured on these same two cores; it too grows with cores).',
    'B grows less: lost races cost a request each whatever the replica count. One hot auction (A, E) does not grow with',
    'cores at all: every decision on it holds the same row lock, so its ceiling is the single-row rate in section E;',
    'only doing less under the lock (batching several bids per lock) raises it.',
    '',
    `End state (PostgreSQL) after G: ${checksLine(checks)}.`,
    '',
  ].join('\n');
}

/**
 * Phase S: phase C on a system with the bus's cryptography on and one with it off (BUS_CHECKS), storms alternating;
 * `result` is measureBusChecks' (bid-signatures.mjs).
 */
export function sectionS(s, { date, result }) {
  const { runs, primitives, on, off, ratio, cost, roundCosts, cpuAddedUs, cpuShare, ownAddedUs, checks } = result;
  const us = (value) => String(Math.round(value));
  const percent = (value) => `${(100 * value).toFixed(1)}%`;
  const cores = (value) => value.toFixed(2);
  const run = (r) =>
    `| ${r.index + 1} | ${r.checks} | ${r.phase.accepted.length} | ${Math.round(r.phase.acceptedPerSecond)} | ${ms(r.phase.p50)} | ${ms(r.phase.p99)} | ` +
    `${r.phase.serverErrors} | ${us(r.ownUs)} | ${us(r.systemUs)} | ${us(r.loadUs)} | ${cores(r.machineCores)} | ${cores(r.elsewhereCores)} |`;
  // Processes that spend at least 10 µs per accepted bid on either side, then the system's total (load generator apart).
  const shown = on.byGroup
    .map((group, i) => ({ label: group.label, on: group.perRequestUs, off: off.byGroup[i]?.perRequestUs ?? 0 }))
    .filter((group) => group.label !== 'load generator' && Math.max(group.on, group.off) >= 10);
  const met = cost <= s.targets.busChecks;
  return [
    HEADINGS.s,
    '',
    `${date}. ${machine()}; every service, PostgreSQL, Redis, NATS and the load generator on this one machine. Phase C's`,
    `workload (${s.bidders} bidders, each on two auctions of its own out of ${s.listings}, so every bid is accepted; closed loop, ${s.seconds} s per storm)`,
    'on two isolated systems up side by side in the same run, one replica of each service: **on**, as production runs',
    '(every NATS request and reply sealed with crypto_box for its one reader, which proves its sender to that reader, every',
    'event signed with Ed25519 and checked by each consumer; ADR 0065, 0066, 0068), and **off**, with `BUS_CHECKS=off` in every process of that system',
    `(signatures are random text, every check passes, nothing is sealed). After an unmeasured ${s.sWarmUpSeconds} s storm on each system`,
    '(cold caches, code not yet optimized), the measured storms alternate, on, off, on, off, ...',
    `(${s.sRounds} round${s.sRounds === 1 ? '' : 's'}, \`BENCH_S_ROUNDS\`; the other system waits idle meanwhile), each after a CHECKPOINT` +
      `${runs.every((r) => r.checkpointed) ? '' : ' (**refused before some storms**)'}, so the machine's noise falls on both`,
    'sides; the figures of each side are the medians of its storms. A process refuses `BUS_CHECKS=off` outside',
    '`NODE_ENV=test`, so the benchmark runs every system of its own with `NODE_ENV=test` (which also lets them use this',
    "machine's NATS and Redis, which take clients without credentials; ADR 0065). CPU per accepted bid: CPU time from /proc",
    'over each storm divided by its accepted bids, as phase C measures it in the Bids section: **own** is the gateway and',
    "the six services of the system that ran the storm; **system** adds the machine's NATS, Redis and PostgreSQL, shared",
    'servers that count whatever else they served meanwhile; the load generator is shown apart. "Machine busy" is all',
    'cores\' busy time over the storm (/proc/stat) and "elsewhere" the part of it no counted process spent: other work on',
    'the machine, the noise of that storm.',
    '',
    '| storm | BUS_CHECKS | accepted | accepted bids/s | p50 ms | p99 ms | 5xx | own CPU µs per accepted bid | system CPU µs per accepted bid | load generator µs | machine busy, cores | elsewhere, cores |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...runs.map(run),
    '',
    '| median of the storms | on | off | on / off |',
    '| --- | ---: | ---: | ---: |',
    `| accepted bids/s | ${Math.round(on.acceptedPerSecond)} | ${Math.round(off.acceptedPerSecond)} | ${ratio.toFixed(3)} |`,
    `| p50 ms | ${ms(on.p50)} | ${ms(off.p50)} | ${(on.p50 / off.p50).toFixed(2)} |`,
    `| p99 ms | ${ms(on.p99)} | ${ms(off.p99)} | ${(on.p99 / off.p99).toFixed(2)} |`,
    `| own CPU µs per accepted bid (gateway and services) | ${us(on.ownUs)} | ${us(off.ownUs)} | ${(on.ownUs / off.ownUs).toFixed(3)} |`,
    `| system CPU µs per accepted bid (with NATS, Redis, PostgreSQL) | ${us(on.systemUs)} | ${us(off.systemUs)} | ${(on.systemUs / off.systemUs).toFixed(3)} |`,
    `| elsewhere, cores (other work on the machine) | ${cores(on.elsewhereCores)} | ${cores(off.elsewhereCores)} | - |`,
    '',
    'CPU per accepted bid by process, µs (medians of the storms; processes under 10 µs on both sides left out):',
    '',
    `| BUS_CHECKS | ${shown.map((group) => group.label).join(' | ')} | system |`,
    `| --- | ${shown.map(() => '---:').join(' | ')} | ---: |`,
    `| on | ${shown.map((group) => us(group.on)).join(' | ')} | ${us(on.systemUs)} |`,
    `| off | ${shown.map((group) => us(group.off)).join(' | ')} | ${us(off.systemUs)} |`,
    `| on − off | ${shown.map((group) => us(group.on - group.off)).join(' | ')} | ${us(cpuAddedUs)} |`,
    '',
    `Signing, sealing and checking cost ${percent(cost)} of accepted bids/s (median on ${Math.round(on.acceptedPerSecond)} against off ${Math.round(off.acceptedPerSecond)}; ` +
      `round by round ${roundCosts.map(percent).join(', ')}); per accepted bid they add ${us(ownAddedUs)} µs of the gateway's and services' CPU ` +
      `and ${us(cpuAddedUs)} µs of the system's (${percent(cpuShare)} of on's ${us(on.systemUs)} µs).`,
    '',
    `What one operation costs here (server-kit's own code, in the load generator before the systems started, a 600-byte message): ` +
      `an Ed25519 signature ${us(primitives.signUs)} µs, its check ${us(primitives.verifyUs)} µs (events), sealing a request for one reader ${us(primitives.sealUs)} µs, ` +
      `taking it ${us(primitives.openUs)} µs. The ${us(ownAddedUs)} µs the gateway and services add per accepted bid are as much as ` +
      `${Math.round(ownAddedUs / primitives.verifyUs)} checks or ${Math.round(ownAddedUs / primitives.signUs)} signatures.`,
    '',
    `**Verdict: ${met ? 'met' : 'missed'}**: the bus's cryptography costs ${percent(cost)} of accepted bids/s in phase C, target at most ${s.targets.busChecks * 100}%.`,
    '',
    `End state (PostgreSQL), checked after every storm; after the last on storm: ${checksLine(checks.on)}. After the last off storm: ${checksLine(checks.off)}.`,
    '',
  ].join('\n');
}
