// The rules every rendered overlay must keep (ADR 0052). Takes parsed objects, returns violations naming the object and
// the rule, so the CLI (scripts/check-k8s.mjs) and the tests share one implementation.
import {
  appOf, autoscalersByTarget, containerEnv, containersOf, find, idOf, imageReference, LONG_RUNNING, namespaceOf, ofKind, quantity, selects, workloadsOf,
} from './k8s-objects.mjs';
import { connectionBudget } from './k8s-budget.mjs';
import { checkEdge } from './k8s-edge.mjs';

/** The rule names a violation carries (plus `schema`, from k8s-schemas.mjs). */
export const RULES = [
  'resources', 'probes', 'security-context', 'image-tag', 'secret-literal', 'pdb', 'hpa-target', 'hpa-replicas',
  'network-policy', 'service-account', 'termination-grace', 'db-budget', 'edge',
];

/** Checks the objects of one rendered overlay; `facts` from appFacts(). Returns violations, the checks run and the budget. */
export function checkObjects(objects, facts) {
  const violations = [];
  let checks = 0;
  const rule = (name, object, ok, message) => {
    checks += 1;
    if (!ok) violations.push({ rule: name, object: idOf(object), message });
  };
  const autoscalerOf = autoscalersByTarget(objects);

  for (const object of objects) {
    if (object.kind === 'Secret') {
      const keys = [...Object.keys(object.data ?? {}), ...Object.keys(object.stringData ?? {})];
      rule('secret-literal', object, keys.length === 0, `carries values (${keys.join(', ')}) in the manifests: create it outside them (docs/operations.md "Secrets")`);
    }
    if (object.kind === 'ServiceAccount') {
      rule('service-account', object, object.automountServiceAccountToken === false, 'does not set automountServiceAccountToken: false');
    }
    if (object.kind === 'HorizontalPodAutoscaler') {
      const ref = object.spec?.scaleTargetRef ?? {};
      const target = find(objects, ref.kind, ref.name, namespaceOf(object));
      const group = (apiVersion) => (String(apiVersion).includes('/') ? String(apiVersion).split('/')[0] : '');
      const sameGroup = target && (!ref.apiVersion || group(ref.apiVersion) === group(target.apiVersion));
      rule('hpa-target', object, Boolean(sameGroup), `scales ${ref.kind}/${ref.name}, which is not in the output`);
    }
  }

  for (const { object, template } of workloadsOf(objects)) {
    const namespace = namespaceOf(object);
    const spec = template.spec ?? {};
    const longRunning = LONG_RUNNING.has(object.kind);
    const podContext = spec.securityContext ?? {};

    for (const { container, init, label } of containersOf(spec)) {
      checkResources(rule, object, container, label);
      if (longRunning && !init) {
        for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) rule('probes', object, Boolean(container[probe]), `${label} has no ${probe}`);
      }
      checkSecurity(rule, object, container, label, podContext);
      const { tag, digest } = imageReference(container.image ?? '');
      rule('image-tag', object, Boolean(container.image) && (Boolean(digest) || (tag !== null && tag !== 'latest')),
        `${label} image "${container.image ?? ''}" has ${tag === 'latest' ? 'the tag latest' : 'no tag'}: pin a version or digest`);
    }
    for (const flag of ['hostNetwork', 'hostPID', 'hostIPC']) rule('security-context', object, spec[flag] !== true, `pod sets ${flag}: true`);

    const labels = template.metadata?.labels ?? {};
    rule('network-policy', object, ofKind(objects, 'NetworkPolicy', namespace).some((policy) => selects(policy.spec?.podSelector, labels)),
      'its pods are selected by no NetworkPolicy');

    const accountName = spec.serviceAccountName ?? spec.serviceAccount;
    const account = accountName && find(objects, 'ServiceAccount', accountName, namespace);
    if (accountName && !account) rule('service-account', object, false, `names ServiceAccount ${accountName}, which is not in the output`);
    else if (spec.automountServiceAccountToken !== false) {
      rule('service-account', object, Boolean(account), 'runs as the default ServiceAccount and mounts its token: name its own ServiceAccount');
    }

    if (longRunning) checkDrain(rule, object, template, objects, facts);
    if (object.kind === 'Deployment' || object.kind === 'StatefulSet') checkScaling(rule, object, template, objects, autoscalerOf);
  }

  checkEdge(objects, rule);

  const budget = connectionBudget(objects, facts, autoscalerOf);
  for (const problem of budget.problems) rule('db-budget', problem.object, false, problem.message);
  if (budget.limit !== null) {
    checks += 1;
    if (budget.used > budget.limit) {
      violations.push({
        rule: 'db-budget',
        object: budget.source,
        message: `the services may open ${budget.used} PostgreSQL connections, over ${budget.limit} (max_connections ${budget.maxConnections} - ${budget.reserve} reserved): ${budget.lines.join('; ')}`,
      });
    }
  }
  return { violations, checks, budget };
}

/** cpu and memory requests and a memory limit, each a quantity, a request never above its limit. */
function checkResources(rule, object, container, label) {
  const { requests = {}, limits = {} } = container.resources ?? {};
  for (const [where, key] of [[requests, 'cpu'], [requests, 'memory'], [limits, 'memory']]) {
    const kind = where === requests ? 'requests' : 'limits';
    const value = where[key];
    rule('resources', object, value !== undefined && quantity(value) > 0, `${label} has no resources.${kind}.${key}`);
  }
  for (const key of ['cpu', 'memory']) {
    if (requests[key] === undefined || limits[key] === undefined) continue;
    rule('resources', object, quantity(requests[key]) <= quantity(limits[key]), `${label} requests more ${key} (${requests[key]}) than its limit (${limits[key]})`);
  }
}

/** The restricted pod security profile, container settings first, the pod's where Kubernetes inherits them. */
function checkSecurity(rule, object, container, label, pod) {
  const own = container.securityContext ?? {};
  const runAsNonRoot = own.runAsNonRoot ?? pod.runAsNonRoot;
  const runAsUser = own.runAsUser ?? pod.runAsUser;
  const seccomp = (own.seccompProfile ?? pod.seccompProfile)?.type;
  const say = (ok, message) => rule('security-context', object, ok, `${label} ${message}`);
  say(runAsNonRoot === true, 'does not set runAsNonRoot: true');
  say(Number.isInteger(runAsUser) && runAsUser > 0, 'sets no non-root runAsUser (runAsNonRoot alone fails on an image whose user is a name)');
  say(own.readOnlyRootFilesystem === true, 'does not set readOnlyRootFilesystem: true');
  say(own.allowPrivilegeEscalation === false, 'does not set allowPrivilegeEscalation: false');
  say((own.capabilities?.drop ?? []).includes('ALL'), 'does not drop ALL capabilities');
  say(own.privileged !== true, 'is privileged');
  say(seccomp === 'RuntimeDefault', `has seccompProfile ${seccomp ?? 'unset'}, not RuntimeDefault`);
}

/** Seconds a container's preStop hook waits (`sleep` action or a `sleep N` command): they count against the grace period. */
export function preStopSeconds(container) {
  const preStop = container.lifecycle?.preStop;
  if (preStop?.sleep) return Number(preStop.sleep.seconds ?? 0);
  const match = /(?:^|[\s;&|])sleep\s+(\d+(?:\.\d+)?)\b/.exec((preStop?.exec?.command ?? []).join(' '));
  return match ? Number(match[1]) : 0;
}

/** A grace period set, covering the preStop wait and, for our apps, SHUTDOWN_DELAY_MS + DRAIN_TIMEOUT_MS (ADR 0050). */
function checkDrain(rule, object, template, objects, facts) {
  const spec = template.spec ?? {};
  const grace = spec.terminationGracePeriodSeconds;
  rule('termination-grace', object, Number.isInteger(grace), 'sets no terminationGracePeriodSeconds');
  if (!Number.isInteger(grace)) return;
  for (const { container, init, label } of containersOf(spec)) {
    if (init) continue;
    const env = containerEnv(container, objects, namespaceOf(object));
    const ms = (name) => Number(env.get(name)?.value ?? facts.defaults[name]);
    const ours = appOf(object, template, container, env, facts.apps);
    const drain = ours ? ms('SHUTDOWN_DELAY_MS') + ms('DRAIN_TIMEOUT_MS') : 0;
    const needed = preStopSeconds(container) * 1000 + drain;
    if (Number.isNaN(needed) || needed === 0) continue;
    const parts = ours ? 'preStop + SHUTDOWN_DELAY_MS + DRAIN_TIMEOUT_MS' : 'preStop';
    rule('termination-grace', object, grace * 1000 >= needed, `terminationGracePeriodSeconds ${grace} is shorter than ${label}'s ${parts} (${needed} ms)`);
  }
}

/** HPA-owned counts carry no `replicas`; more than one pod (or an HPA above one) needs a PDB that lets a node drain. */
function checkScaling(rule, object, template, objects, autoscalerOf) {
  const hpa = autoscalerOf(object);
  if (hpa) rule('hpa-replicas', object, object.spec?.replicas === undefined, `sets replicas although HorizontalPodAutoscaler/${hpa.metadata?.name} owns the count (every apply would reset it)`);
  if (object.kind !== 'Deployment') return;
  const most = hpa ? hpa.spec?.maxReplicas ?? 1 : object.spec?.replicas ?? 1;
  if (most <= 1) return;
  const labels = template.metadata?.labels ?? {};
  const budgets = ofKind(objects, 'PodDisruptionBudget', namespaceOf(object)).filter((pdb) => selects(pdb.spec?.selector, labels));
  rule('pdb', object, budgets.length > 0, `runs up to ${most} replicas and no PodDisruptionBudget selects its pods`);
  const fewest = hpa ? hpa.spec?.minReplicas ?? 1 : most;
  for (const pdb of budgets) {
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    const blocks = maxUnavailable === 0 || maxUnavailable === '0%' || minAvailable === '100%' || (Number.isInteger(minAvailable) && minAvailable >= fewest);
    rule('pdb', object, !blocks, `PodDisruptionBudget/${pdb.metadata?.name} allows no disruption at ${fewest} replica(s): node drains would hang`);
  }
}
