// CI: the image holds production dependencies only, and everything the apps load at run time is one (ADR 0053).
// Fails when the built apps or libraries require a package that is not in package.json's `dependencies` (the image
// installs them with `npm ci --omit=dev`, so it would be missing there), when a dependency is required by no built
// code and has no reason below (a dev or test tool that belongs in devDependencies), or when deploy/Dockerfile misses a
// workspace's package.json (listed once, for both installs) or an app's build.
import { builtinModules } from 'node:module';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildWorkspace } from './lib/build.mjs';
import { ROOT } from './lib/system.mjs';

// Dependencies no built file requires by name, and why the image needs them anyway.
const NEEDED_WITHOUT_REQUIRE = {
  '@nestjs/platform-express': "NestFactory loads it by name for every Nest app (the gateway imports only its types)",
  '@opentelemetry/core': 'one version shared by the OpenTelemetry SDK packages start-tracing loads (ADR 0049)',
  '@opentelemetry/semantic-conventions': 'one version shared by the OpenTelemetry SDK packages start-tracing loads (ADR 0049)',
  '@nestjs/websockets': 'unused today (the gateway serves its sockets with ws); kept until a decision removes it',
  '@nestjs/platform-ws': 'unused today (the gateway serves its sockets with ws); kept until a decision removes it',
};

const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const json = (path) => JSON.parse(read(path));
const problems = [];
const problem = (line) => problems.push(line);

const pkg = json('package.json');
const dependencies = new Set(Object.keys(pkg.dependencies ?? {}));
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Workspaces (`apps/x`, `libs/y`) that have a package.json. */
const workspaces = ['apps', 'libs'].flatMap((dir) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, dir, entry.name, 'package.json')))
    .map((entry) => `${dir}/${entry.name}`),
);
// What the image runs: every app with a Node main (gateway and services) and the libraries they require.
const runnableApps = workspaces.filter((ws) => ws.startsWith('apps/') && json(`${ws}/package.json`).main === 'dist/main.js');
const libraries = workspaces.filter((ws) => ws.startsWith('libs/'));

// 1. Every package the built code requires is a production dependency.
buildWorkspace();
const jsFiles = (dir) => {
  const found = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.js')) found.push(full);
    }
  };
  walk(join(ROOT, dir));
  return found;
};
const required = new Map();
// The gateway loads the web app's server renderer (apps/web/dist-server, ADR 0072): an ES module bundle whose imports
// are packages the image must hold.
const builds = [...[...runnableApps, ...libraries].map((ws) => `${ws}/dist`), 'apps/web/dist-server'];
for (const build of builds) {
  if (!existsSync(join(ROOT, build))) {
    problem(`${build} is missing although the build ran`);
    continue;
  }
  for (const file of jsFiles(build)) {
    // tsc writes every import as require(); require.resolve() and import() load packages too; the renderer's bundle
    // keeps static `import ... from "x"`.
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/\b(?:require(?:\.resolve)?|import)\(\s*(['"])([^'"]+)\1\s*\)/g),
      ...text.matchAll(/^\s*(?:import|export)\b[^'"\n]*?\bfrom\s*(['"])([^'"]+)\1/gm),
      ...text.matchAll(/^\s*import\s*(['"])([^'"]+)\1/gm),
    ];
    for (const match of specifiers) {
      const specifier = match[2];
      if (specifier.startsWith('.') || builtins.has(specifier) || builtins.has(packageOf(specifier))) continue;
      const name = packageOf(specifier);
      if (name.startsWith('@market/')) continue;
      if (!required.has(name)) required.set(name, relative(ROOT, file));
    }
  }
}
for (const [name, file] of required) {
  if (!dependencies.has(name)) {
    const where = pkg.devDependencies?.[name] ? 'is only in devDependencies' : 'is in no dependency list';
    problem(`${name} (required by ${file}) ${where}: the image installs dependencies only`);
  }
}

// 2. Every production dependency is required by built code, or has a reason above.
for (const name of dependencies) {
  if (!required.has(name) && !NEEDED_WITHOUT_REQUIRE[name]) {
    problem(`${name} is in dependencies but no built app or library requires it: move it to devDependencies (or give the reason in scripts/check-prod-deps.mjs)`);
  }
}

// 3. The Dockerfile installs every workspace (both installs) and copies every app's and library's build. The package
// files are listed once, in the deps stage, which keeps them in /manifests before its npm ci; the prod-deps stage takes
// them from there.
const dockerfile = read('deploy/Dockerfile');
const lines = dockerfile.split('\n').map((line) => line.trim());
/** The instructions of one stage (`FROM ... AS name`), comments left out. */
const stage = (name) => {
  const start = lines.findIndex((line) => new RegExp(`^FROM \\S+ AS ${name}$`).test(line));
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && line.startsWith('FROM '));
  return lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line !== '' && !line.startsWith('#'));
};
const deps = stage('deps');
const prodDeps = stage('prod-deps');
const at = (instructions, line) => instructions.indexOf(line);
for (const ws of workspaces) {
  const copies = lines.filter((line) => line === `COPY ${ws}/package.json ${ws}/`).length;
  if (copies !== 1) problem(`deploy/Dockerfile copies ${ws}/package.json ${copies} time(s), not once in the deps stage: npm ci would not find the workspace`);
  else if (at(deps, `COPY ${ws}/package.json ${ws}/`) < 0) problem(`deploy/Dockerfile copies ${ws}/package.json outside the deps stage: npm ci would not find the workspace`);
}
const keep = at(deps, 'RUN cp -a /repo /manifests');
const lastPackageCopy = Math.max(...deps.map((line, i) => (line.startsWith('COPY ') ? i : -1)));
if (keep < 0 || keep < lastPackageCopy || keep > at(deps, 'RUN npm ci --no-audit --no-fund')) {
  problem('deploy/Dockerfile: the deps stage must run `cp -a /repo /manifests` after copying the package files and before npm ci');
}
const take = at(prodDeps, 'COPY --from=deps /manifests/ ./');
if (take < 0 || take > at(prodDeps, 'RUN npm ci --omit=dev --no-audit --no-fund')) {
  problem('deploy/Dockerfile: the prod-deps stage must `COPY --from=deps /manifests/ ./` before its npm ci --omit=dev');
}
for (const ws of [...runnableApps, ...libraries, 'apps/web']) {
  if (!lines.includes(`COPY --from=build /repo/${ws}/dist ${ws}/dist`)) problem(`deploy/Dockerfile does not copy ${ws}/dist into the image`);
}
for (const line of ['COPY --from=build /repo/apps/web/dist-server apps/web/dist-server', 'COPY --from=build /repo/apps/web/package.json apps/web/']) {
  if (!lines.includes(line)) problem(`deploy/Dockerfile lacks \`${line}\`: the gateway renders public pages with it (ADR 0072)`);
}

if (problems.length > 0) {
  for (const line of problems) console.error(`- ${line}`);
  console.error(`\nThe production dependencies check found ${problems.length} problem(s).`);
  process.exit(1);
}
console.log(
  `Production dependencies: ${required.size} packages required by ${runnableApps.length} apps and ${libraries.length} libraries, all in dependencies; ` +
    `${dependencies.size} dependencies, none unexplained; deploy/Dockerfile installs ${workspaces.length} workspaces and copies every build.`,
);
