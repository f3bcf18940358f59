// The PostgreSQL connection budget of a rendered overlay (ADR 0052, sizing in ADR 0044): every pod of every workload
// that holds a pool, at the most pods it may run (HPA maximum, else replicas) plus its rolling-update surge, times its
// DB_POOL_SIZE, must fit in max_connections less a reserve for migrations, backups and an operator's psql.
import { appOf, containerEnv, containersOf, idOf, namespaceOf, podTemplateOf, quantity } from './k8s-objects.mjs';

/** Where the overlay states its PostgreSQL's max_connections. */
export const PLATFORM_CONFIG_MAP = 'platform';
export const MAX_CONNECTIONS_KEY = 'POSTGRES_MAX_CONNECTIONS';
/** Kept free unless the overlay says more: superuser_reserved_connections (3), a backup and an operator (ADR 0052). */
export const RESERVED_CONNECTIONS = 10;
export const RESERVED_CONNECTIONS_KEY = 'POSTGRES_RESERVED_CONNECTIONS';

const configMapStub = { kind: 'ConfigMap', metadata: { name: PLATFORM_CONFIG_MAP } };

/** The extra pods a rolling update may start above the count (maxSurge, 25% rounded up by default; none for Recreate). */
export function surgeOf(object, pods) {
  if (object.kind !== 'Deployment' || object.spec?.strategy?.type === 'Recreate') return 0;
  const surge = object.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%';
  return typeof surge === 'string' && surge.endsWith('%') ? Math.ceil((pods * Number(surge.slice(0, -1))) / 100) : Number(surge);
}

/** The `platform` ConfigMaps (kustomize may suffix the name with a hash). */
const platformConfigMaps = (objects) =>
  objects.filter((object) => object.kind === 'ConfigMap' && new RegExp(`^${PLATFORM_CONFIG_MAP}(-[a-z0-9]{10})?$`).test(object.metadata?.name ?? ''));

/** One key of ConfigMap `platform` as a positive integer, or a problem saying why not (`fallback` when it may be absent). */
function platformNumber(objects, key, fallback) {
  const values = [...new Set(platformConfigMaps(objects).map((configMap) => configMap.data?.[key]).filter((value) => value !== undefined))];
  if (values.length === 0) {
    if (fallback !== undefined) return { value: fallback };
    return { problem: `no ConfigMap ${PLATFORM_CONFIG_MAP} with the key ${key} in the output: the DB connection budget cannot be checked` };
  }
  if (values.length > 1) return { problem: `ConfigMaps ${PLATFORM_CONFIG_MAP} disagree on ${key} (${values.join(', ')})` };
  const value = Number(values[0]);
  if (!Number.isInteger(value) || value <= 0) return { problem: `${key} "${values[0]}" is not a positive integer` };
  return { value };
}

/** The pool one container holds: 0 without a database, else its DB_POOL_SIZE or the kit's default; a problem when unknown. */
function poolOf(object, template, container, objects, facts) {
  const env = containerEnv(container, objects, namespaceOf(object));
  const app = appOf(object, template, container, env, facts.apps);
  const usesDatabase = facts.databaseApps.includes(app) || env.has('DATABASE_URL') || env.has('DB_POOL_SIZE');
  if (!usesDatabase) return { pool: 0 };
  const setting = env.get('DB_POOL_SIZE');
  if (!setting) return { pool: facts.defaults.DB_POOL_SIZE };
  if (setting.value === undefined) return { problem: `container ${container.name} takes DB_POOL_SIZE from ${setting.from}, which the check cannot read: keep it in a ConfigMap or the manifest` };
  const pool = quantity(setting.value);
  if (!Number.isInteger(pool) || pool < 1 || pool > 200) return { problem: `container ${container.name} has DB_POOL_SIZE "${setting.value}", not an integer from 1 to 200` };
  return { pool };
}

/** Adds up the connections of the long-running workloads; `autoscalerOf` from autoscalersByTarget(). */
export function connectionBudget(objects, facts, autoscalerOf) {
  const problems = [];
  const lines = [];
  let used = 0;
  for (const object of objects.filter((item) => item.kind === 'Deployment' || item.kind === 'StatefulSet')) {
    const template = podTemplateOf(object);
    let perPod = 0;
    for (const { container, init } of containersOf(template?.spec)) {
      if (init) continue; // Init containers exit before the app opens its pool.
      const { pool, problem } = poolOf(object, template, container, objects, facts);
      if (problem) problems.push({ object, message: problem });
      else perPod += pool;
    }
    if (perPod === 0) continue;
    const hpa = autoscalerOf(object);
    const pods = hpa?.spec?.maxReplicas ?? object.spec?.replicas ?? 1;
    const surge = surgeOf(object, pods);
    used += (pods + surge) * perPod;
    lines.push(`${idOf(object)} (${pods}${surge ? ` + ${surge} surge` : ''}) × ${perPod} = ${(pods + surge) * perPod}`);
  }
  // Migration Jobs run while the previous pods still hold their pools (the deploy applies them all before the roll).
  for (const job of objects.filter((item) => item.kind === 'Job')) {
    const template = podTemplateOf(job);
    let perPod = 0;
    for (const { container, init } of containersOf(template?.spec)) {
      if (init) continue;
      const { pool, problem } = poolOf(job, template, container, objects, facts);
      if (problem) problems.push({ object: job, message: problem });
      else perPod += pool;
    }
    const pods = (job.spec?.parallelism ?? 1) * perPod;
    if (pods === 0) continue;
    used += pods;
    lines.push(`${idOf(job)} × ${perPod} = ${pods}`);
  }
  const max = platformNumber(objects, MAX_CONNECTIONS_KEY);
  if (max.problem) problems.push({ object: configMapStub, message: max.problem });
  const reserved = platformNumber(objects, RESERVED_CONNECTIONS_KEY, RESERVED_CONNECTIONS);
  if (reserved.problem) problems.push({ object: configMapStub, message: reserved.problem });
  const reserve = Math.max(RESERVED_CONNECTIONS, reserved.value ?? RESERVED_CONNECTIONS);
  return {
    used,
    limit: max.value === undefined ? null : max.value - reserve,
    maxConnections: max.value ?? null,
    reserve,
    source: `ConfigMap/${PLATFORM_CONFIG_MAP}`,
    lines,
    problems,
  };
}
