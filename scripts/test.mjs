// npm test: builds what changed, then runs unit, integration and browser tests in that order.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/system.mjs';

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
const run = (command, args) => spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env }).status ?? 1;

const only = process.argv[2];
// [tier, jest config, extra arguments, report name]. The integration tier is two runs: two suites at a time, then the
// fault tests alone (ADR 0061).
const tiers = [
  ['unit', 'jest.unit.config.js', [], 'unit'],
  ['integration', 'jest.int.config.js', [], 'integration'],
  ['integration', 'jest.int-alone.config.js', ['--runInBand'], 'integration-alone'],
  ['e2e', 'jest.e2e.config.js', ['--runInBand'], 'e2e'],
].filter(([name]) => !only || name === only);

if (run('npx', ['nx', 'run-many', '-t', 'build', '--parallel=2', '--outputStyle=static']) !== 0) {
  console.error('Build failed; no tests were run.');
  process.exit(1);
}

const reports = join(ROOT, 'tmp', 'test-reports');
mkdirSync(reports, { recursive: true });
let passed = 0;
let failed = 0;
let broken = false;
for (const [, config, extra, name] of tiers) {
  const report = join(reports, `${name}.json`);
  rmSync(report, { force: true });
  console.log(`\n=== ${name} tests ===`);
  const status = run('npx', ['jest', '-c', config, '--json', `--outputFile=${report}`, ...extra]);
  if (existsSync(report)) {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    if (result.numTotalTests === 0) broken = true;
  } else {
    broken = true;
  }
  if (status !== 0) broken = true;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
