// node scripts/bench-ws-adapter.mjs [sockets]: what serving the live feed through @nestjs/websockets would cost
// (ADR 0057). Runs one server per mode in a child process: `ws` (a noServer WebSocketServer behind an upgrade
// listener of our own, as apps/gateway/src/live does) and `nest` (a WsAdapter subclass doing the same dynamic-path
// upgrade, feeding a @WebSocketGateway whose handleConnection takes the socket). Opens the sockets 100 at a time,
// reads each server's heap, RSS and CPU before and after (after a GC), then broadcasts 5 frames and times delivery.
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';

const LIVE_PATH = /^\/ws\/listings\/([0-9a-f-]{36})$/;
const LISTING = '3f2a6c1e-8d4b-4b8e-9a1f-0c2d3e4f5a6b';

/** The server side: keeps every socket, reports memory on /mem and broadcasts one frame to all on /send. */
async function serve(mode, port) {
  const sockets = new Set();
  const add = (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('error', () => undefined);
  };
  const mem = () => {
    global.gc();
    const { rss, heapUsed } = process.memoryUsage();
    return { rss, heap: heapUsed, sockets: sockets.size, cpu: process.cpuUsage() };
  };
  const send = () => {
    const frame = JSON.stringify({ type: 'new_bid', at: Date.now(), pad: 'x'.repeat(200) });
    for (const ws of sockets) ws.send(frame);
    return String(sockets.size);
  };
  const upgradeTo = (wss, onSocket) => (request, socket, head) => {
    if (!LIVE_PATH.test((request.url ?? '').split('?')[0])) return socket.destroy();
    wss.handleUpgrade(request, socket, head, (ws) => onSocket(ws, request));
  };
  const wsOptions = { noServer: true, clientTracking: false, maxPayload: 1024, perMessageDeflate: false };
  if (mode === 'ws') {
    const server = createServer((req, res) => res.end(req.url === '/mem' ? JSON.stringify(mem()) : send()));
    const wss = new WebSocketServer(wsOptions);
    server.on('upgrade', upgradeTo(wss, add));
    server.listen(port, () => process.send('ready'));
    return;
  }
  const { NestFactory } = await import('@nestjs/core');
  const { Controller, Get, Module } = await import('@nestjs/common');
  const { WebSocketGateway } = await import('@nestjs/websockets');
  const { WsAdapter } = await import('@nestjs/platform-ws');
  // The dynamic path needs the adapter's own upgrade handling replaced: it matches exact paths only.
  class LiveWsAdapter extends WsAdapter {
    create() {
      const wss = new WebSocketServer(wsOptions);
      this.httpServer.on('upgrade', upgradeTo(wss, (ws, request) => wss.emit('connection', ws, request)));
      return wss;
    }
  }
  class LiveGateway {
    handleConnection(ws) {
      add(ws);
    }
  }
  WebSocketGateway({ path: '/ws/listings' })(LiveGateway);
  class Probe {
    mem() {
      return mem();
    }
    send() {
      return send();
    }
  }
  Controller()(Probe);
  for (const name of ['mem', 'send']) Get(name)(Probe.prototype, name, Object.getOwnPropertyDescriptor(Probe.prototype, name));
  class ProbeModule {}
  Module({ controllers: [Probe], providers: [LiveGateway] })(ProbeModule);
  const app = await NestFactory.create(ProbeModule, { logger: false });
  app.useWebSocketAdapter(new LiveWsAdapter(app));
  await app.listen(port);
  process.send('ready');
}

/** Opens `count` sockets against one mode's server and measures it. */
async function measure(mode, count, port) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', mode, String(port)], { execArgv: ['--expose-gc'] });
  await new Promise((resolve) => child.once('message', resolve));
  const get = async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).text();
  const before = JSON.parse(await get('/mem'));
  const sockets = [];
  const delays = [];
  const started = performance.now();
  for (let opened = 0; opened < count; opened += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - opened) }, () => new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/listings/${LISTING}`);
        ws.on('open', () => resolve(sockets.push(ws)));
        ws.on('error', reject);
        ws.on('message', (data) => delays.push(Date.now() - JSON.parse(data.toString()).at));
      })),
    );
  }
  const openMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = JSON.parse(await get('/mem'));
  for (let frame = 0; frame < 5; frame++) {
    await get('/send');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const ws of sockets) ws.terminate();
  child.kill();
  delays.sort((a, b) => a - b);
  const cpuMs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
  return {
    mode,
    sockets: after.sockets,
    openMs: Math.round(openMs),
    cpuUsPerHandshake: Math.round((cpuMs / count) * 1000),
    heapPerSocket: Math.round((after.heap - before.heap) / count),
    rssPerSocket: Math.round((after.rss - before.rss) / count),
    frames: delays.length,
    p95: delays[Math.floor(0.95 * (delays.length - 1))],
  };
}

if (process.argv[2] === '--serve') {
  await serve(process.argv[3], Number(process.argv[4]));
} else {
  const count = Number(process.argv[2] ?? 5000);
  console.log('| server | sockets | open ms | server CPU µs per handshake | heap bytes per socket | RSS bytes per socket | frames | delivery p95 ms |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [mode, port] of [['ws', 4791], ['nest', 4792]]) {
    const r = await measure(mode, count, port);
    console.log(`| ${r.mode} | ${r.sockets} | ${r.openMs} | ${r.cpuUsPerHandshake} | ${r.heapPerSocket} | ${r.rssPerSocket} | ${r.frames} | ${r.p95} |`);
  }
}
