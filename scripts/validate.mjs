// npm run validate: what CI checks short of the slow tiers, in CI's order; run it before pushing (README). .ci/run runs
// the same list with --skip-unit (its unit tier runs with the others in npm test), so the two cannot drift apart.
import { spawnSync } from 'node:child_process';
import { ROOT } from './lib/system.mjs';

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
const skipUnit = process.argv.includes('--skip-unit');

/** [what, command, arguments] in the order CI runs them. */
const CHECKS = [
  ['lint', 'npx', ['eslint', '.']],
  ['k6 scripts', 'node', ['scripts/check-k6.mjs']],
  ['docs', 'node', ['scripts/check-docs.mjs']],
  ['OpenAPI document', 'node', ['scripts/check-openapi.mjs']],
  ['alerts and dashboards', 'node', ['scripts/check-observability.mjs']],
  ['Prometheus rules (promtool)', 'node', ['scripts/check-rules.mjs']],
  ['Kubernetes manifests', 'node', ['scripts/check-k8s.mjs']],
  ['production dependencies', 'node', ['scripts/check-prod-deps.mjs']],
  ['typecheck', 'npx', ['nx', 'run-many', '-t', 'typecheck', '--parallel=2', '--outputStyle=static']],
  ...(skipUnit ? [] : [['unit tests', 'npx', ['jest', '-c', 'jest.unit.config.js']]]),
];

const started = Date.now();
for (const [what, command, args] of CHECKS) {
  console.log(`\n== ${what} (at ${Math.round((Date.now() - started) / 1000)} s) ==`);
  const status = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env }).status;
  if (status !== 0) {
    console.error(`\nvalidate: ${what} failed (${[command, ...args].join(' ')})`);
    process.exit(status ?? 1);
  }
}
console.log(`\nvalidate: all ${CHECKS.length} checks passed in ${Math.round((Date.now() - started) / 1000)} s`);
