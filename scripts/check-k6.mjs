// Checks every deploy/k6/*.js without k6 (CI has none): each file must parse as an ES module, import only k6's own
// modules and names that exist in them, and export `options` and every function its scenarios name. Nothing runs:
// the modules are parsed and linked against stand-ins for k6's modules, never evaluated.
//   node scripts/check-k6.mjs [files...]
import vm from 'node:vm';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// vm.SourceTextModule needs this flag; NODE_OPTIONS accepts it, so the script re-runs itself with it.
if (!vm.SourceTextModule) {
  const flagged = spawnSync(process.execPath, ['--experimental-vm-modules', '--no-warnings', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(flagged.status ?? 1);
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const K6_DIR = join(ROOT, 'deploy', 'k6');

/** The exports of k6's built-in modules that these scripts may use (k6 v0.5x/1.x). */
const K6_MODULES = {
  k6: ['check', 'fail', 'group', 'sleep', 'randomSeed', 'default'],
  'k6/http': [
    'default', 'get', 'head', 'post', 'put', 'patch', 'del', 'options', 'request', 'asyncRequest', 'batch', 'file', 'cookieJar',
    'CookieJar', 'expectedStatuses', 'setResponseCallback', 'url', 'TLS_1_2', 'TLS_1_3',
  ],
  'k6/ws': ['default', 'connect'],
  'k6/metrics': ['Counter', 'Gauge', 'Rate', 'Trend', 'default'],
  'k6/execution': ['default'],
  'k6/data': ['SharedArray', 'default'],
  'k6/encoding': ['b64encode', 'b64decode', 'default'],
  'k6/crypto': ['md5', 'sha1', 'sha256', 'sha512', 'hmac', 'randomBytes', 'createHash', 'createHMAC', 'default'],
  'k6/timers': ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'default'],
};

const context = vm.createContext({});

/** A stand-in module with k6's export names; linking fails on a name k6 does not export. */
function k6Module(specifier) {
  const names = K6_MODULES[specifier];
  if (!names) throw new Error(`imports '${specifier}', which is not a k6 built-in module this check knows (remote modules are not allowed: CI has no network)`);
  return new vm.SyntheticModule(names, function init() {
    for (const name of names) this.setExport(name, undefined);
  }, { context, identifier: specifier });
}

/** The exec functions the scenarios name, read from the source (options are not evaluated). */
function scenarioExecs(source) {
  return [...source.matchAll(/\bexec:\s*['"]([A-Za-z_$][\w$]*)['"]/g)].map((m) => m[1]);
}

/** Problems found in one k6 script (empty when it is fine). */
async function checkFile(file) {
  const source = readFileSync(file, 'utf8');
  let module;
  try {
    module = new vm.SourceTextModule(source, { identifier: file, context });
  } catch (error) {
    // vm does not say where; node's own syntax check of the same text does (its first line is [stdin]:LINE).
    const where = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: source, encoding: 'utf8' }).stderr.split('\n')[0];
    return [`does not parse: ${error.message} (line ${where.replace('[stdin]:', '')})`];
  }
  try {
    await module.link((specifier) => k6Module(specifier));
  } catch (error) {
    return [error.message];
  }
  // Reflect.ownKeys lists the export names without reading them (reading an unevaluated binding throws).
  const exported = Reflect.ownKeys(module.namespace).filter((key) => typeof key === 'string');
  const problems = [];
  if (!exported.includes('options')) problems.push('exports no options');
  const execs = scenarioExecs(source);
  for (const name of execs) if (!exported.includes(name)) problems.push(`a scenario runs '${name}', which is not exported`);
  if (!exported.includes('default') && !execs.length) problems.push('exports no default function and no scenario names an exec function');
  return problems;
}

const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(K6_DIR).filter((f) => f.endsWith('.js')).sort().map((f) => join(K6_DIR, f));
let failed = 0;
for (const file of files) {
  const problems = await checkFile(file);
  const name = relative(ROOT, file);
  if (problems.length) {
    failed += 1;
    for (const problem of problems) console.error(`${name}: ${problem}`);
  } else {
    console.log(`${name}: ok`);
  }
}
console.log(`k6 scripts: ${files.length - failed} ok, ${failed} with problems`);
process.exit(failed ? 1 : 0);
