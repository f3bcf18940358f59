// The NATS server's users and what each may do (ADR 0035): one user per process with the permissions contracts compute
// (natsPermissions), plus an operator for the nats CLI. npm start, `npm run nats-config`, compose's deploy/nats/auth.conf
// and the system tests all render them here.
import { randomBytes } from 'node:crypto';
import { loadBuilt } from './build.mjs';

/** The user that may do anything (streams, consumers, dead letters with the nats CLI); no process gets it. */
export const NATS_OPERATOR = 'operator';

/** The built contracts lib, where the permissions are computed (built first when this process has not). */
export const builtContracts = (log) => loadBuilt('libs/contracts/dist/index.js', log);

/** Every NATS user: the gateway, the six services and the operator. */
export function natsUsers(contracts) {
  return [...contracts.NATS_PARTIES, NATS_OPERATOR];
}

/** The environment variable that holds a user's password in compose and in the config `nats-config` prints. */
export function natsPasswordVariable(user) {
  return partyVariable('NATS', user, 'PASSWORD');
}

/** A process's own variable in .env and compose: `NATS_AUTH_PASSWORD`, `REDIS_GATEWAY_PASSWORD`, `BUS_BILLING_SIGNING_KEY`. */
export function partyVariable(prefix, party, suffix) {
  return `${prefix}_${party.replace(/-service$/, '').toUpperCase()}_${suffix}`;
}

/**
 * A random NATS password: base64url after a letter, because nats-server reads a `$VARIABLE` as config text and a
 * value starting with digits may parse as a number.
 */
export function natsPassword() {
  return `N${randomBytes(24).toString('base64url')}`;
}

/** The subject spaces of a deployment, read from the same variables the processes read. */
export function natsSpaces(env = process.env) {
  return { subjectPrefix: env.NATS_SUBJECT_PREFIX ?? '', eventsPrefix: env.EVENTS_PREFIX ?? 'events', stream: env.EVENTS_STREAM ?? 'EVENTS' };
}

/** A process's NATS_URL: its user and password in the URL (server-kit passes them to nats.js as options). */
export function natsUrl(user, password, host, port) {
  return `nats://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}`;
}

const SAFE = /^[A-Za-z0-9_-]+$/;
const quoted = (text) => {
  if (/["\\\n]/.test(text)) throw new Error(`Cannot write ${JSON.stringify(text)} into a NATS config`);
  return `"${text}"`;
};
const list = (name, values, indent) => [`${indent}${name}: { allow: [`, ...values.map((value) => `${indent}  ${quoted(value)}`), `${indent}] }`];

/**
 * The `authorization { users = [...] }` block of a nats-server config. `passwords` is `'env'` (each password read from
 * its NATS_<USER>_PASSWORD variable in nats-server's environment) or a map of user to literal password.
 */
export function natsAuthorization(contracts, spaces, passwords = 'env') {
  const password = (user) => {
    if (passwords === 'env') return `$${natsPasswordVariable(user)}`;
    const value = passwords[user];
    if (!value || !SAFE.test(value)) throw new Error(`The NATS password of ${user} must be letters, digits, - and _`);
    return quoted(value);
  };
  const lines = ['authorization {', '  users = ['];
  for (const party of contracts.NATS_PARTIES) {
    const permissions = contracts.natsPermissions(party, spaces);
    lines.push('    {', `      user: ${quoted(party)}`, `      password: ${password(party)}`, '      permissions: {');
    lines.push(...list('publish', permissions.publish, '        '), ...list('subscribe', permissions.subscribe, '        '));
    if (permissions.allowResponses) lines.push('        allow_responses: true');
    lines.push('      }', '    }');
  }
  lines.push('    {', `      # Every subject: for the nats CLI (streams, consumers, dead letters). No process gets this user.`);
  lines.push(`      user: ${quoted(NATS_OPERATOR)}`, `      password: ${password(NATS_OPERATOR)}`, '    }', '  ]', '}');
  return lines.join('\n');
}

/** The whole file `npm run nats-config` prints: a header naming what it was made from, then the users. */
export function natsConfigText(contracts, spaces, passwords = 'env') {
  const header = [
    '# NATS users of Site Market, one per process, generated from libs/contracts by `npm run nats-config` (ADR 0035).',
    `# Subject spaces: NATS_SUBJECT_PREFIX="${spaces.subjectPrefix}", EVENTS_PREFIX="${spaces.eventsPrefix}", EVENTS_STREAM="${spaces.stream}".`,
    '# Regenerate it whenever subjects or events change; do not edit by hand.',
  ];
  if (passwords === 'env') header.push(`# Passwords come from nats-server's environment: ${natsUsers(contracts).map(natsPasswordVariable).join(', ')}.`);
  return `${[...header, natsAuthorization(contracts, spaces, passwords)].join('\n')}\n`;
}
