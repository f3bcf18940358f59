// Websocket viewers of one listing's live feed (/ws/listings/{id}, D21) for npm run bench:bids. They run in a worker
// thread, so receipt times are not delayed by the bid driver's own work on the main thread (and vice versa).
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

const ROLE = 'bench-bid-viewers';

/**
 * Opens `count` sockets on `url`. `ready` resolves to {available: true, open} once all are open, or to
 * {available: false, reason} when the endpoint does not upgrade (not built yet, or refused). `stop()` closes them and
 * resolves to the new_bid frames seen: {frames: [[bidId, receivedAtMs, socketIndex], ...], open, closedEarly}.
 */
export function startViewers(url, count) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: ROLE, url, count } });
  let settleReady;
  let settleStop;
  const ready = new Promise((resolve) => (settleReady = resolve));
  const stopped = new Promise((resolve) => (settleStop = resolve));
  worker.on('message', (message) => {
    if (message.type === 'ready') settleReady({ available: true, open: message.open });
    if (message.type === 'unavailable') settleReady({ available: false, reason: message.reason });
    if (message.type === 'frames') settleStop(message);
  });
  worker.on('error', (error) => {
    settleReady({ available: false, reason: `viewer thread failed: ${error.message}` });
    settleStop({ frames: [], open: 0, closedEarly: 0, error: error.message });
  });
  worker.on('exit', () => settleStop({ frames: [], open: 0, closedEarly: 0 }));
  return {
    ready,
    stop: async () => {
      if (!(await ready).available) {
        await worker.terminate();
        return { frames: [], open: 0, closedEarly: 0 };
      }
      worker.postMessage('stop');
      const result = await stopped;
      await worker.terminate();
      return result;
    },
  };
}

/** Opens one socket; resolves when open, rejects with why it did not. */
function open(WebSocket, url, onFrame) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('no upgrade within 5 s'));
    }, 5000);
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

async function runViewers({ url, count }) {
  const { default: WebSocket } = await import('ws');
  const frames = [];
  let closedEarly = 0;
  let stopping = false;
  const sockets = [];
  const frameHandler = (index) => (data) => {
    const receivedAt = performance.timeOrigin + performance.now();
    try {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'new_bid' && frame.data?.bid?.id) frames.push([frame.data.bid.id, receivedAt, index]);
    } catch {
      // not a JSON frame: not ours to measure
    }
  };
  try {
    sockets.push(await open(WebSocket, url, frameHandler(0)));
  } catch (error) {
    parentPort.postMessage({ type: 'unavailable', reason: error.message });
    return;
  }
  // The rest twenty at a time, so the gateway sees a crowd arrive rather than one burst of 200 handshakes.
  for (let start = 1; start < count; start += 20) {
    const batch = Array.from({ length: Math.min(20, count - start) }, (_, i) => open(WebSocket, url, frameHandler(start + i)));
    sockets.push(...(await Promise.all(batch)));
  }
  for (const socket of sockets) socket.on('close', () => !stopping && (closedEarly += 1));
  parentPort.postMessage({ type: 'ready', open: sockets.length });
  parentPort.once('message', () => {
    stopping = true;
    for (const socket of sockets) socket.terminate();
    parentPort.postMessage({ type: 'frames', frames, open: sockets.length, closedEarly });
  });
}

if (!isMainThread && workerData?.role === ROLE) {
  runViewers(workerData).catch((error) => parentPort.postMessage({ type: 'unavailable', reason: error.message }));
}
