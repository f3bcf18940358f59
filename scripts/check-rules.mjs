// CI: the Prometheus rules are valid and do what docs/slo.md says. slo-rules.yml is what scripts/slo-rules.mjs writes,
// `promtool check rules` accepts both rule files, and `promtool test rules` runs every test of
// deploy/observability/tests/ (alerts against synthetic series, the shed-is-not-an-outage case among them).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './lib/system.mjs';
import { filesUnder } from './lib/files-under.mjs';

const DIR = join(ROOT, 'deploy/observability');
const run = (command, args) => spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' }).status === 0;

if (spawnSync('promtool', ['--version'], { stdio: 'ignore' }).error) {
  console.error('promtool is not installed: it comes with Debian\'s prometheus package (apt-get install prometheus); .ci/run installs it');
  process.exit(1);
}
const tests = filesUnder(join(DIR, 'tests'), /\.test\.ya?ml$/);
const ok =
  run('node', ['scripts/slo-rules.mjs', '--check']) &&
  run('promtool', ['check', 'rules', join(DIR, 'alerts.yml'), join(DIR, 'slo-rules.yml')]) &&
  tests.length > 0 &&
  run('promtool', ['test', 'rules', ...tests]);
if (!ok) {
  console.error(tests.length === 0 ? 'no rule tests in deploy/observability/tests' : 'the Prometheus rules failed their checks');
  process.exit(1);
}
console.log(`Prometheus rules: both files valid, ${tests.length} test file(s) pass`);
