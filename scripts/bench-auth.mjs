// npm run bench:auth: measures the NATS hop. Drives login, /auth/me and a gateway-only route in one run
// against the whole system started as processes, and records req/s, latency, the ratio of /auth/me to the
// gateway-only route (target >= 60%) and each process's CPU per request (from /proc) in docs/benchmarks.md.
import autocannon from 'autocannon';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { dropIsolated, isolatedSystemEnv, startSystem, ROOT, SERVICES } from './lib/system.mjs';
import { countCpu, pidsNamed } from './lib/process-cpu.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const env = {
  ...isolatedSystemEnv('bench', 3950),
  LOG_LEVEL: 'warn',
  // The benchmark hammers login on purpose; the limits would turn it into a 429 benchmark.
  RATE_LIMIT_SCALE: '0',
};
const tag = Date.now().toString(36);

const TARGET_RATIO = 0.6;

const system = await startSystem({ env, quiet: true, log: () => {} });
// Where each request's CPU went: the gateway, auth-service, the other services (idle here), and the shared servers.
const pidOf = (name) => system.children[SERVICES.findIndex(([service]) => service === name)].pid;
const cpuGroups = () => [
  ['gateway', () => [system.children[system.children.length - 1].pid]],
  ['auth-service', () => [pidOf('auth-service')]],
  ['other services', () => SERVICES.filter(([name]) => name !== 'auth-service').map(([name]) => pidOf(name))],
  ['NATS', () => pidsNamed('nats-server')],
  ['Redis', () => pidsNamed('redis-server')],
  ['PostgreSQL', () => pidsNamed('postgres')],
  ['load generator', () => [process.pid]],
];
const run = (title, opts) =>
  new Promise((resolve, reject) => {
    const cpu = countCpu(cpuGroups());
    autocannon({ duration: SECONDS, connections: CONNECTIONS, ...opts }, (error, result) =>
      error ? reject(error) : resolve({ title, result, cpu: cpu.stop(result.requests.total) }),
    );
  });

try {
  const base = system.url;
  const user = { username: `bench_${tag}`, email: `bench_${tag}@example.com`, password: `bench-pass-${tag}`, age_confirmed: true };
  const json = { 'content-type': 'application/json' };
  await fetch(`${base}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify(user) });
  const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ login: user.username, password: user.password }) })).json();
  const loginBody = JSON.stringify({ login: user.username, password: user.password });

  const results = [];
  results.push(await run('GET /healthz (gateway only, no NATS hop)', { url: `${base}/healthz` }));
  results.push(await run('GET /api/auth/me (gateway → NATS → auth-service → PostgreSQL)', { url: `${base}/api/auth/me`, headers: { authorization: `Bearer ${login.access_token}` } }));
  results.push(await run('POST /api/auth/login (adds an argon2id verification)', { url: `${base}/api/auth/login`, method: 'POST', headers: json, body: loginBody }));

  const rows = results.map(({ title, result }) => {
    const errors = result.errors + result.non2xx;
    return `| ${title} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${errors} |`;
  });
  const [healthz, me] = results.map(({ result }) => result.requests.average);
  const ratio = me / healthz;
  const cpuRows = results.map(({ title, cpu }) => {
    const total = cpu.reduce((sum, group) => sum + group.perRequestUs, 0);
    return `| ${title.split(' (')[0]} | ${cpu.map((group) => Math.round(group.perRequestUs)).join(' | ')} | ${Math.round(total)} |`;
  });
  const groups = results[0].cpu.map((group) => group.label);
  const section = [
    `## bench:auth (${new Date().toISOString().slice(0, 10)})`,
    '',
    `autocannon, ${CONNECTIONS} connections, ${SECONDS} s per route, one after the other in one run; ${os.cpus().length} cores, Node ${process.version}; every process on this machine.`,
    '',
    '| route | req/s | p50 ms | p99 ms | errors |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `/api/auth/me reaches ${Math.round(ratio * 100)}% of /healthz's req/s in this run (target ≥ ${TARGET_RATIO * 100}%: **${ratio >= TARGET_RATIO ? 'met' : 'missed'}**).`,
    '',
    `CPU per request, µs, from /proc over each route's ${SECONDS} s (PostgreSQL, NATS and Redis are this machine's shared servers, so they count whatever else they served meanwhile):`,
    '',
    `| route | ${groups.join(' | ')} | total |`,
    `| --- | ${groups.map(() => '---:').join(' | ')} | ---: |`,
    ...cpuRows,
    '',
  ].join('\n');
  console.log(section);
  const file = join(ROOT, 'docs', 'benchmarks.md');
  const header = '# Benchmarks\n\nNumbers from `npm run bench:*` on the development machine. Benchmarks, never timed tests.\n\n';
  const previous = existsSync(file) ? readFileSync(file, 'utf8').replace(/## bench:auth[\s\S]*?(?=\n## |$)/, '').replace(header, '') : '';
  writeFileSync(file, `${header}${section}\n${previous.trim() ? `${previous.trim()}\n` : ''}`);
} finally {
  await system.stop();
  await dropIsolated(env);
}
