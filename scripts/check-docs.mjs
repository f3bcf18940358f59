// CI: the docs say what the code defines (ADR 0028). Fails when a request subject, an event, who consumes it, or an
// environment variable the code reads is missing from the docs; when an ADR lacks its date and status; or when a code
// comment points at a tracker issue instead of an ADR or a DESIGN decision; or when docs/architecture.md's "Where things
// live" table points at files that are not there.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadBuilt } from './lib/build.mjs';
import { ROOT } from './lib/system.mjs';
import { filesUnder } from './lib/files-under.mjs';
import { whereProblems } from './lib/where-things-live.mjs';

const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const problems = [];
const problem = (line) => problems.push(line);

const contracts = loadBuilt('libs/contracts/dist/index.js');
const architecture = read('docs/architecture.md');
const readme = read('README.md');
const allDocs = [readme, ...filesUnder('docs', /\.md$/).map((file) => readFileSync(file, 'utf8'))].join('\n');

// 1. Every request subject is in the architecture's subjects table.
const subjects = Object.values(contracts.RPC).flatMap((group) => Object.values(group).map((definition) => definition.subject));
for (const subject of subjects) if (!architecture.includes(`\`${subject}\``)) problem(`docs/architecture.md does not list the subject \`${subject}\``);

// 2. Every event has a row in the events table naming who writes it and exactly who consumes it (EVENT_FLOWS).
const PARTIES = ['gateway', 'auth-service', 'listings-service', 'bidding-service', 'billing-service', 'admin-service', 'notifications-service'];
const eventRows = new Map();
for (const line of architecture.split('\n')) {
  const match = /^\| `([a-z_]+\.[a-z_]+)`[^|]*\|([^|]*)\|([^|]*)\|/.exec(line);
  if (match) eventRows.set(match[1], { writtenBy: match[2], consumedBy: match[3] });
}
for (const name of contracts.EVENT_NAMES) {
  const row = eventRows.get(name);
  const flow = contracts.EVENT_FLOWS[name];
  if (!row) {
    problem(`docs/architecture.md has no row for the event \`${name}\``);
    continue;
  }
  // An event may have several writers (admin.acted: each service records its own admins' acts, ADR 0032).
  for (const writer of [flow.writtenBy].flat()) {
    if (!row.writtenBy.includes(writer)) problem(`docs/architecture.md: \`${name}\` is written by ${writer}, which its row does not say`);
  }
  for (const party of PARTIES) {
    const said = row.consumedBy.includes(party);
    const declared = flow.consumedBy.includes(party);
    if (declared && !said) problem(`docs/architecture.md: \`${name}\` is consumed by ${party}, which its row does not say`);
    if (said && !declared) problem(`docs/architecture.md: \`${name}\`'s row names ${party} as a consumer, which EVENT_FLOWS does not`);
  }
}
for (const name of eventRows.keys()) {
  if (!contracts.EVENT_NAMES.includes(name) && !subjects.includes(name)) problem(`docs/architecture.md has a row for \`${name}\`, which is no event or subject`);
}

// 2b. Every error code has its row in the architecture's error table (ADR 0079).
for (const { code } of contracts.errorCodeList()) {
  if (!new RegExp(`^\\| \`${code}\` \\|`, 'm').test(architecture)) problem(`docs/architecture.md has no row for the error code \`${code}\``);
}

// 3. Every configuration variable is in the README's table; every other variable the code reads is somewhere in the docs.
const CONFIGS = [
  ['libs/server-kit/dist/index.js', ['commonEnv', 'serviceEnv']],
  ['apps/gateway/dist/gateway.config.js', ['gatewayEnv']],
  ['apps/auth-service/dist/auth.config.js', ['authEnv']],
  ['apps/bidding-service/dist/bidding.config.js', ['biddingEnv']],
  ['apps/billing-service/dist/billing.config.js', ['billingEnv']],
  ['apps/notifications-service/dist/notifications.config.js', ['notificationsEnv']],
  ['apps/listings-service/dist/listings.config.js', ['listingsEnv']],
];
const readmeTable = new Set();
for (const line of readme.split('\n')) {
  if (!line.startsWith('| `')) continue;
  for (const match of line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)) readmeTable.add(match[1]);
}
const configured = new Set();
for (const [path, names] of CONFIGS) {
  const module = loadBuilt(path);
  for (const name of names) for (const key of Object.keys(module[name])) configured.add(key);
}
for (const name of configured) if (!readmeTable.has(name)) problem(`README.md's environment table does not list ${name}`);
const read_by_code = new Map();
const sources = [
  ...filesUnder('scripts', /\.mjs$/),
  ...filesUnder('apps', /\.(ts|tsx|mjs)$/).filter((file) => !file.includes('/apps/web/src/') || /site-links/.test(file)),
  ...filesUnder('libs', /\.ts$/),
];
for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:process\.env|import\.meta\.env|\benv)\.([A-Z][A-Z0-9_]+)\b(?!\s*=[^=])/g)) {
    if (!read_by_code.has(match[1])) read_by_code.set(match[1], relative(ROOT, file));
  }
}
const PLUMBING = new Set(['PATH', 'HOME', 'CI', 'NODE_ENV', 'NX_DAEMON', 'NX_NO_CLOUD', 'NX_TUI', 'NX_CACHE_DIRECTORY']);
for (const [name, file] of read_by_code) {
  if (PLUMBING.has(name) || configured.has(name)) continue;
  if (!new RegExp(`\\b${name}\\b`).test(allDocs)) problem(`${name} (read in ${file}) is not described in README.md or docs/`);
}

// 4. Every ADR says when it was decided and whether it still stands.
const adrs = readdirSync(join(ROOT, 'docs/decisions')).filter((name) => /^\d{4}-.*\.md$/.test(name));
const numbers = new Set(adrs.map((name) => name.slice(0, 4)));
for (const name of adrs) {
  const text = read(`docs/decisions/${name}`);
  if (!/^Date: \d{4}-\d{2}-\d{2}$/m.test(text)) problem(`docs/decisions/${name} has no "Date: YYYY-MM-DD" line`);
  const status = /^Status: (.+)$/m.exec(text)?.[1];
  if (!status) problem(`docs/decisions/${name} has no "Status:" line`);
  else if (!/^(accepted|proposed|deprecated|superseded by \d{4}|accepted, amended by \d{4}(, \d{4})*)$/.test(status)) {
    problem(`docs/decisions/${name}: status "${status}" is not accepted, proposed, deprecated, "superseded by NNNN" or "accepted, amended by NNNN"`);
  } else {
    for (const ref of status.match(/\d{4}/g) ?? []) if (!numbers.has(ref)) problem(`docs/decisions/${name} refers to ADR ${ref}, which does not exist`);
  }
}

// 5. Comments cite ADRs and DESIGN decisions, never tracker issues. Only comments are read: page text (the contact
// page's response time for urgent issues, in hours) is no tracker reference.
/** The comment text of each line: `//` and block comments in code, `#` comments in YAML and Dockerfiles. */
function commentsOf(text, hashComments) {
  let inBlock = false;
  return text.split('\n').map((line) => {
    if (hashComments) return line.includes('#') ? line.slice(line.indexOf('#')) : '';
    let comment = '';
    let rest = line;
    while (rest.length > 0) {
      if (inBlock) {
        const end = rest.indexOf('*/');
        comment += end < 0 ? rest : rest.slice(0, end);
        if (end < 0) break;
        inBlock = false;
        rest = rest.slice(end + 2);
        continue;
      }
      const lineStart = rest.indexOf('//');
      const blockStart = rest.indexOf('/*');
      if (lineStart < 0 && blockStart < 0) break;
      if (blockStart < 0 || (lineStart >= 0 && lineStart < blockStart)) {
        comment += rest.slice(lineStart);
        break;
      }
      inBlock = true;
      rest = rest.slice(blockStart + 2);
    }
    return comment;
  });
}
const code = [...filesUnder('apps', /\.(ts|tsx|mjs|js|css)$/), ...filesUnder('libs', /\.ts$/), ...filesUnder('scripts', /\.(mjs|ts)$/), ...filesUnder('deploy', /\.(js|ya?ml)$|Dockerfile$/)];
for (const file of code) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  commentsOf(text, /\.ya?ml$|Dockerfile$/.test(file)).forEach((comment, index) => {
    if (/\bissues? #?\d+\b/i.test(comment)) problem(`${relative(ROOT, file)}:${index + 1} points at a tracker issue: ${lines[index].trim().slice(0, 120)}`);
  });
}

const repositoryFiles = ['apps', 'libs', 'scripts', 'docs'].flatMap((dir) => filesUnder(dir, /./)).map((file) => relative(ROOT, file));
for (const line of whereProblems(architecture, repositoryFiles, read)) problem(line);

if (problems.length > 0) {
  for (const line of problems) console.error(`- ${line}`);
  console.error(`\nThe docs check found ${problems.length} problem(s).`);
  process.exit(1);
}
console.log(`Docs check: ${subjects.length} subjects, ${contracts.EVENT_NAMES.length} events, ${configured.size + read_by_code.size} variables and ${adrs.length} ADRs are documented; no comment cites a tracker issue; "Where things live" holds.`);
