// Websocket viewers of one listing's live feed (/ws/listings/{id}, D21) for npm run bench:bids. They run in worker
// threads, so receipt times are not delayed by the bid driver's own work on the main thread (and vice versa).
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

const ROLE = 'bench-bid-viewers';

/** One worker thread with `count` sockets; its ready and stopped promises. */
function startWorker(url, count, batch, firstIndex) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: ROLE, url, count, batch, firstIndex } });
  let settleReady;
  let settleStop;
  const ready = new Promise((resolve) => (settleReady = resolve));
  const stopped = new Promise((resolve) => (settleStop = resolve));
  const nothing = { byBid: new Map(), duplicates: 0, open: 0, closedEarly: 0 };
  worker.on('message', (message) => {
    if (message.type === 'ready') settleReady({ available: true, open: message.open });
    if (message.type === 'unavailable') settleReady({ available: false, reason: message.reason });
    if (message.type === 'frames') settleStop(message);
  });
  worker.on('error', (error) => {
    settleReady({ available: false, reason: `viewer thread failed: ${error.message}` });
    settleStop({ ...nothing, error: error.message });
  });
  worker.on('exit', () => settleStop(nothing));
  return {
    ready,
    stop: async (expect, timeoutMs) => {
      if (!(await ready).available) {
        await worker.terminate();
        return nothing;
      }
      worker.postMessage({ expect, timeoutMs });
      const result = await stopped;
      await worker.terminate();
      return result;
    },
  };
}

/**
 * Opens `count` sockets on `url`, `batch` handshakes at a time, spread over `threads` worker threads. `ready` resolves
 * to {available: true, open} once all are open, or to {available: false, reason} when the endpoint does not upgrade
 * (not built yet, or refused). `stop(expect, timeoutMs)` waits until every socket has a frame for each bid id in `expect`
 * (at most `timeoutMs`), then closes them and resolves to the new_bid frames seen: {byBid: Map(bidId =>
 * Float64Array of receipt times, one per socket that got it), duplicates (a socket getting a bid twice), open, closedEarly}.
 */
export function startViewers(url, count, { batch = 20, threads = 1 } = {}) {
  const shares = Array.from({ length: Math.min(threads, count) }, (_, i) => Math.floor(count / threads) + (i < count % threads ? 1 : 0));
  let first = 0;
  const workers = shares.map((share) => {
    const worker = startWorker(url, share, batch, first);
    first += share;
    return worker;
  });
  const ready = Promise.all(workers.map((w) => w.ready)).then((all) => {
    const refused = all.find((r) => !r.available);
    return refused ?? { available: true, open: all.reduce((n, r) => n + r.open, 0) };
  });
  return {
    ready,
    stop: async (expect = [], timeoutMs = 10_000) => {
      const results = await Promise.all(workers.map((w) => w.stop(expect, timeoutMs)));
      const byBid = new Map();
      for (const result of results) {
        for (const [bidId, times] of result.byBid) {
          const had = byBid.get(bidId);
          if (!had) byBid.set(bidId, times);
          else {
            const merged = new Float64Array(had.length + times.length);
            merged.set(had);
            merged.set(times, had.length);
            byBid.set(bidId, merged);
          }
        }
      }
      const sum = (key) => results.reduce((n, r) => n + (r[key] ?? 0), 0);
      return { byBid, duplicates: sum('duplicates'), open: sum('open'), closedEarly: sum('closedEarly') };
    },
  };
}

/** Opens one socket; resolves when open, rejects with why it did not. */
function open(WebSocket, url, onFrame) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('no upgrade within 10 s'));
    }, 10_000);
    socket.on('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      socket.terminate();
      reject(new Error(`HTTP ${response.statusCode} instead of a websocket upgrade`));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('open', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.on('message', onFrame);
  });
}

async function runViewers({ url, count, batch, firstIndex }) {
  const { default: WebSocket } = await import('ws');
  // Per bid: receipt times, and which sockets have it (so a repeat is counted, not taken for another socket's copy).
  const byBid = new Map();
  let duplicates = 0;
  let closedEarly = 0;
  let stopping = false;
  const sockets = [];
  const frameHandler = (index) => (data) => {
    const receivedAt = performance.timeOrigin + performance.now();
    let frame;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      return; // not a JSON frame: not ours to measure
    }
    const bidId = frame.type === 'new_bid' ? frame.data?.bid?.id : null;
    if (!bidId) return;
    let seen = byBid.get(bidId);
    if (!seen) byBid.set(bidId, (seen = { times: [], sockets: new Uint8Array(count) }));
    if (seen.sockets[index]) {
      duplicates += 1;
      return;
    }
    seen.sockets[index] = 1;
    seen.times.push(receivedAt);
  };
  try {
    sockets.push(await open(WebSocket, url, frameHandler(0)));
  } catch (error) {
    parentPort.postMessage({ type: 'unavailable', reason: error.message });
    return;
  }
  // The rest `batch` at a time, so the gateway sees a crowd arrive rather than one burst of handshakes.
  for (let start = 1; start < count; start += batch) {
    const opening = Array.from({ length: Math.min(batch, count - start) }, (_, i) => open(WebSocket, url, frameHandler(start + i)));
    const settled = await Promise.allSettled(opening);
    sockets.push(...settled.filter((s) => s.status === 'fulfilled').map((s) => s.value));
    const refused = settled.find((s) => s.status === 'rejected');
    if (refused) {
      for (const socket of sockets) socket.terminate();
      parentPort.postMessage({ type: 'unavailable', reason: `${sockets.length} sockets open from ${firstIndex}, then: ${refused.reason.message}` });
      return;
    }
  }
  for (const socket of sockets) socket.on('close', () => !stopping && (closedEarly += 1));
  parentPort.postMessage({ type: 'ready', open: sockets.length });
  parentPort.once('message', async ({ expect = [], timeoutMs = 0 }) => {
    // Frames for the last bids may still be on their way: wait until every socket has each expected bid (or the time is up).
    const deadline = Date.now() + timeoutMs;
    const complete = () => expect.every((bidId) => (byBid.get(bidId)?.times.length ?? 0) >= sockets.length);
    while (!complete() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stopping = true;
    for (const socket of sockets) socket.terminate();
    const compact = new Map([...byBid].map(([bidId, seen]) => [bidId, Float64Array.from(seen.times)]));
    parentPort.postMessage({ type: 'frames', byBid: compact, duplicates, open: sockets.length, closedEarly });
  });
}

if (!isMainThread && workerData?.role === ROLE) {
  runViewers(workerData).catch((error) => parentPort.postMessage({ type: 'unavailable', reason: error.message }));
}
