// Our npm registry mirror lacks some other-platform binary packages (darwin, win32, ...), so `npm install`
// leaves them out of package-lock.json and `npm ci` then calls the lock out of sync. This adds a
// platform-tagged entry for each missing optional dependency; npm ci skips them on this platform.
// Run after any `npm install` that changes the lock: node scripts/lock-fill-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'arm'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  if (!os || !cpu) return null;
  const libc = tokens.some((t) => t.startsWith('musl')) ? 'musl' : os === 'linux' && tokens.some((t) => t.startsWith('gnu')) ? 'glibc' : null;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const nested = `${path}/node_modules/${name}`;
    if (lock.packages[key] || lock.packages[nested]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries`);
