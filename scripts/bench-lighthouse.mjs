// npm run bench:lighthouse: Lighthouse (mobile and desktop presets) with Debian's chromium on /, /browse and a
// listing page of a freshly started and seeded system, plus the initial JavaScript a first visit loads (gzip).
// It builds first (Nx, cached). BENCH_RUNS runs per page (default 3, median). Writes the
// "## Lighthouse (npm run bench:lighthouse)" section of docs/benchmarks.md (BENCH_DOCS=0 leaves it alone).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { dropIsolated, isolatedSystemEnv, ROOT, startSystem } from './lib/system.mjs';
import { seedMarket } from './lib/seed-market.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
// The storefront's targets (server-rendered pages, ADR 0072): scores on both presets, LCP and TBT on mobile.
const TARGETS = { performance: 95, accessibility: 98, seo: 95, lcpMs: 2000, tbtMs: 200, initialJsKb: 170 };
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * The JavaScript a first visit to `url` loads before any interaction: the entry module, its modulepreloads, and the
 * modules a server-rendered page names for the entry to load once it is painted (ADR 0072, amended).
 */
async function initialJs(base, path) {
  const html = await (await fetch(`${base}${path}`)).text();
  const named = /<script type="application\/json" id="page-modules">(.*?)<\/script>/.exec(html);
  const sources = [
    ...[...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]),
    ...(named ? JSON.parse(named[1]) : []),
  ];
  let raw = 0;
  let gzip = 0;
  for (const src of new Set(sources)) {
    const bytes = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: new Set(sources).size, rawKb: raw / 1024, gzipKb: gzip / 1024 };
}

async function audit(url, preset, port) {
  const config = preset === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'seo'] }, config);
  const { categories, audits } = result.lhr;
  return {
    performance: Math.round(categories.performance.score * 100),
    accessibility: Math.round(categories.accessibility.score * 100),
    seo: Math.round(categories.seo.score * 100),
    lcp: audits['largest-contentful-paint'].numericValue,
    tbt: audits['total-blocking-time'].numericValue,
    cls: audits['cumulative-layout-shift'].numericValue,
  };
}

// BENCH_WEB_RENDERING=browser measures the pages as the browser alone renders them (the shell), for a before/after.
const RENDERING = process.env.BENCH_WEB_RENDERING ?? 'server';
const env = { ...isolatedSystemEnv('lighthouse', 3990), LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '0', SEED_DEMO: 'false', WEB_RENDERING: RENDERING };
const system = await startSystem({ env, quiet: true, log: () => {} });
let chrome;
try {
  const base = system.url;
  console.log('Seeding the demo market...');
  await seedMarket({ baseUrl: base, admin: system.admin });
  const { listings } = await (await fetch(`${base}/api/listings?limit=1`)).json();
  if (!listings?.length) throw new Error('The seeded market has no live listing');
  const pages = [
    ['/', '/'],
    ['/browse', '/browse'],
    ['a listing', `/listing/${listings[0].id}`],
  ];
  chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: FLAGS });
  const rows = [];
  for (const [label, path] of pages) {
    const js = await initialJs(base, path);
    for (const preset of ['mobile', 'desktop']) {
      const runs = [];
      // One warm-up load, so every measured run sees the same server state (caches, JIT).
      await audit(`${base}${path}`, preset, chrome.port);
      for (let i = 0; i < RUNS; i += 1) runs.push(await audit(`${base}${path}`, preset, chrome.port));
      const row = {
        label,
        preset,
        performance: median(runs.map((r) => r.performance)),
        accessibility: median(runs.map((r) => r.accessibility)),
        seo: median(runs.map((r) => r.seo)),
        lcp: median(runs.map((r) => r.lcp)),
        tbt: median(runs.map((r) => r.tbt)),
        cls: median(runs.map((r) => r.cls)),
        js,
      };
      console.log(`${label} ${preset}: performance ${row.performance}, accessibility ${row.accessibility}, SEO ${row.seo}, LCP ${Math.round(row.lcp)} ms, TBT ${Math.round(row.tbt)} ms, CLS ${row.cls.toFixed(3)}`);
      rows.push(row);
    }
  }
  const mark = (ok) => (ok ? 'met' : '**missed**');
  const section = [
    `## Lighthouse (npm run bench:lighthouse)`,
    '',
    `${new Date().toISOString().slice(0, 10)}: Lighthouse 12 in Debian chromium (headless), median of ${RUNS} runs after one warm-up, pages rendered by the ${RENDERING === 'server' ? 'gateway and hydrated (ADR 0072)' : 'browser alone (WEB_RENDERING=browser)'}, against the whole system started`,
    `locally and seeded with the demo market; ${os.cpus().length} cores, Node ${process.version}. Mobile is Lighthouse's default (Moto G class device, slow 4G,`,
    `4x CPU slowdown); desktop its desktop preset. Targets: performance ≥ ${TARGETS.performance}, accessibility ≥ ${TARGETS.accessibility}, SEO ≥ ${TARGETS.seo}, mobile LCP < ${TARGETS.lcpMs} ms and TBT < ${TARGETS.tbtMs} ms, initial JS ≤ ${TARGETS.initialJsKb} KB gzip.`,
    '',
    '| page | preset | performance | accessibility | SEO | LCP ms | TBT ms | CLS | initial JS (gzip) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.preset} | ${r.performance} (${mark(r.performance >= TARGETS.performance)}) | ${r.accessibility} (${mark(r.accessibility >= TARGETS.accessibility)}) | ${r.seo} (${mark(r.seo >= TARGETS.seo)}) | ${Math.round(r.lcp)}${r.preset === 'mobile' ? ` (${mark(r.lcp < TARGETS.lcpMs)})` : ''} | ${Math.round(r.tbt)}${r.preset === 'mobile' ? ` (${mark(r.tbt < TARGETS.tbtMs)})` : ''} | ${r.cls.toFixed(3)} | ${r.js.gzipKb.toFixed(1)} KB in ${r.js.files} files (${mark(r.js.gzipKb <= TARGETS.initialJsKb)}) |`,
    ),
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (process.env.BENCH_DOCS !== '0') {
    const file = join(ROOT, 'docs', 'benchmarks.md');
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    const pattern = /## Lighthouse \(npm run bench:lighthouse\)[\s\S]*?(?=\n## |$)/;
    writeFileSync(file, pattern.test(current) ? current.replace(pattern, section.trimEnd() + '\n') : `${current.trimEnd()}\n\n${section}`);
  }
} finally {
  await chrome?.kill();
  await system.stop();
  await dropIsolated(env);
}
