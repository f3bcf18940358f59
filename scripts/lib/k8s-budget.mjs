// The PostgreSQL connection budget of a rendered overlay (ADR 0052, sizing in ADR 0044): every pod of every workload
// that holds a pool, at the most pods it may run (HPA maximum, else replicas) plus its rolling-update surge, times its
// DB_POOL_SIZE, must fit in max_connections less a reserve for migrations, backups and an operator's psql.
import { appOf, containerEnv, containersOf, idOf, namespaceOf, podTemplateOf, quantity } from './k8s-objects.mjs';

/** Where the overlay states its PostgreSQL's max_connections. */
export const PLATFORM_CONFIG_MAP = 'platform';
export const MAX_CONNECTIONS_KEY = 'POSTGRES_MAX_CONNECTIONS';
/** Kept free: superuser_reserved_connections (3), migration Jobs run one at a time, a backup and an operator (ADR 0052). */
export const RESERVED_CONNECTIONS = 10;

const configMapStub = { kind: 'ConfigMap', metadata: { name: PLATFORM_CONFIG_MAP } };

/** The extra pods a rolling update may start above the count (maxSurge, 25% rounded up by default; none for Recreate). */
export function surgeOf(object, pods) {
  if (object.kind !== 'Deployment' || object.spec?.strategy?.type === 'Recreate') return 0;
  const surge = object.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%';
  return typeof surge === 'string' && surge.endsWith('%') ? Math.ceil((pods * Number(surge.slice(0, -1))) / 100) : Number(surge);
}

/** max_connections from ConfigMap `platform` (kustomize may suffix its name with a hash), or a problem saying why not. */
function maxConnections(objects) {
  const configMaps = objects.filter((object) => object.kind === 'ConfigMap' && new RegExp(`^${PLATFORM_CONFIG_MAP}(-[a-z0-9]{10})?$`).test(object.metadata?.name ?? ''));
  const values = [...new Set(configMaps.map((configMap) => configMap.data?.[MAX_CONNECTIONS_KEY]).filter((value) => value !== undefined))];
  if (values.length === 0) {
    return { problem: `no ConfigMap ${PLATFORM_CONFIG_MAP} with the key ${MAX_CONNECTIONS_KEY} in the output: the DB connection budget cannot be checked` };
  }
  if (values.length > 1) return { problem: `ConfigMaps ${PLATFORM_CONFIG_MAP} disagree on ${MAX_CONNECTIONS_KEY} (${values.join(', ')})` };
  const value = Number(values[0]);
  if (!Number.isInteger(value) || value <= 0) return { problem: `${MAX_CONNECTIONS_KEY} "${values[0]}" is not a positive integer` };
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
  const max = maxConnections(objects);
  if (max.problem) problems.push({ object: configMapStub, message: max.problem });
  return {
    used,
    limit: max.value === undefined ? null : max.value - RESERVED_CONNECTIONS,
    maxConnections: max.value ?? null,
    reserve: RESERVED_CONNECTIONS,
    source: `ConfigMap/${PLATFORM_CONFIG_MAP}`,
    lines,
    problems,
  };
}
