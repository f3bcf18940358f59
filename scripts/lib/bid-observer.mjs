// The observers of the overhead runs (ADR 0048, 0049), in a process of their own: an OTLP/HTTP sink that takes every
// export and counts requests and bytes, and a scraper that fetches every process's /metrics at the interval it is given, as the
// collector and Prometheus would from their own machines. Driven over IPC by bid-overhead.mjs:
// {type:'sink'} -> {type:'sink', url}; {type:'scrape', urls, intervalMs} -> {type:'scraping'}; {type:'stop'} -> {type:'stats', ...}.
import { createServer } from 'node:http';

const sinkStats = { requests: 0, bytes: 0 };
const scrapeStats = { scrapes: 0, failures: 0, bytes: 0 };
let sink = null;
let scraping = null;
let stopped = false;

async function startSink() {
  sink = createServer((req, res) => {
    req.on('data', (chunk) => (sinkStats.bytes += chunk.length));
    req.on('end', () => {
      sinkStats.requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${sink.address().port}`;
}

async function scrapeEvery(urls, intervalMs) {
  while (!stopped) {
    await Promise.all(
      urls.map(async (url) => {
        try {
          const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
          const text = await response.text();
          if (!response.ok) throw new Error(String(response.status));
          scrapeStats.scrapes += 1;
          scrapeStats.bytes += text.length;
        } catch {
          scrapeStats.failures += 1;
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

process.on('message', async (message) => {
  if (message.type === 'sink') process.send({ type: 'sink', url: await startSink() });
  else if (message.type === 'scrape') {
    scraping = scrapeEvery(message.urls, message.intervalMs ?? 1000);
    process.send({ type: 'scraping' });
  } else if (message.type === 'stop') {
    stopped = true;
    await scraping;
    const cpu = process.cpuUsage();
    process.send({ type: 'stats', exports: sink ? sinkStats : null, scrapes: scraping ? scrapeStats : null, cpuMs: (cpu.user + cpu.system) / 1000 });
    sink?.close();
    process.disconnect();
  }
});
