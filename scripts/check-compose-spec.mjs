// CI: docker-compose.yml holds to the Compose Specification as Compose v2 loads it (ADR 0077). Neither Debian bookworm
// nor npm ships the Compose v2 CLI, so .ci/run cannot always run `docker compose config`; instead this checks, against
// the JSON schema of compose-go (Compose v2's loader) that npm's docker-compose package carries (testcontainers
// installs it): the file as written (anchors merged), and for the default and the observability profile what Debian's
// docker-compose (v1) makes of it with every secret interpolated (`config`, given --env-file), keeping that profile's
// services only, as Compose v2 does; a service may then depend only on services of the same profile.
// Usage: node scripts/check-compose-spec.mjs [--env-file tmp/ci-secrets.env] [--file another-compose.yml]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './lib/system.mjs';

const require = createRequire(import.meta.url);
const PROFILES = [[], ['observability']];

/** The schema and the version of the npm package it came from. */
function composeSchema() {
  const packageDir = dirname(require.resolve('docker-compose/package.json', { paths: [ROOT] }));
  const schema = JSON.parse(readFileSync(join(packageDir, 'schema/compose-spec.json'), 'utf8'));
  // The schema names its draft with an https URL that no validator registers; the draft (07) is the validator's own.
  delete schema.$schema;
  return { schema, version: JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version };
}

/** A validating function from whichever ajv npm installed (eslint's 6, or 8): both take draft-07 schemas. */
async function compile(schema) {
  const { default: Ajv } = await import('ajv');
  const major = Number(String(require('ajv/package.json').version).split('.')[0]);
  const ajv = major >= 8 ? new Ajv({ allErrors: true, strict: false, validateFormats: false }) : new Ajv({ allErrors: true, format: false });
  return ajv.compile(schema);
}

const problems = [];
const where = (error) => error.instancePath ?? error.dataPath ?? '';

function validate(validator, label, document) {
  if (validator(document)) return true;
  for (const error of validator.errors) problems.push(`${label}: ${where(error) || '(top)'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
  return false;
}

/** The services a profile set runs (those with no `profiles`, and those naming an active one), as Compose v2 keeps them. */
function forProfiles(project, active) {
  const services = Object.fromEntries(
    Object.entries(project.services ?? {}).filter(([, service]) => !service.profiles || service.profiles.some((profile) => active.includes(profile))),
  );
  return { ...project, services };
}

function dependencyProblems(project, label) {
  for (const [name, service] of Object.entries(project.services)) {
    const needs = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const needed of needs) if (!project.services[needed]) problems.push(`${label}: ${name} depends on ${needed}, which that profile does not run`);
  }
}

const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : null);
const envFile = option('--env-file');
const COMPOSE_FILE = option('--file') ?? join(ROOT, 'docker-compose.yml');
const { schema, version } = composeSchema();
const validator = await compile(schema);
const checked = [];

// The file as written: x- blocks and merge keys are the spec's own; ${…} stay text, which every field they sit in takes.
const written = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true });
if (validate(validator, 'docker-compose.yml as written', written)) checked.push('as written');

// Interpolated by docker-compose v1, then cut to each profile.
if (!envFile) console.log('no --env-file: the interpolated profiles are not checked');
else if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).error) console.log('docker-compose (v1) is not installed: the interpolated profiles are not checked');
else {
  const result = spawnSync('docker-compose', ['--env-file', envFile, '-f', COMPOSE_FILE, '--profile', 'observability', 'config'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) problems.push(`docker-compose config failed: ${result.stderr.trim()}`);
  else {
    const resolved = parse(result.stdout);
    for (const active of PROFILES) {
      const label = active.length === 0 ? 'default profile' : `profile ${active.join(', ')}`;
      const project = forProfiles(resolved, active);
      const before = problems.length;
      validate(validator, `docker-compose.yml, ${label}`, project);
      dependencyProblems(project, `docker-compose.yml, ${label}`);
      if (problems.length === before) checked.push(`${label} (${Object.keys(project.services).length} services)`);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`docker-compose.yml does not hold to the Compose Specification (compose-go schema from npm docker-compose ${version})`);
  process.exit(1);
}
console.log(`docker-compose.yml holds to the Compose Specification (compose-go schema from npm docker-compose ${version}): ${checked.join('; ')}`);
