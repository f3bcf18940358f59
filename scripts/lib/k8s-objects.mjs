// Reading rendered Kubernetes objects for the manifest check (ADR 0052): names, pod templates, label selectors,
// quantities, image references and the environment a container would see. Pure functions over parsed YAML.

/** Workloads whose pods run until stopped: they need probes, a drain time and a disruption budget. */
export const LONG_RUNNING = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Pod']);

/** How an object is named in a violation: `Kind/name`. */
export const idOf = (object) => `${object?.kind ?? '?'}/${object?.metadata?.name ?? '?'}`;

/** The namespace of an object ('' when the output leaves it to kubectl's context). */
export const namespaceOf = (object) => object?.metadata?.namespace ?? '';

/** The objects of one kind in one namespace. */
export const ofKind = (objects, kind, namespace) => objects.filter((object) => object.kind === kind && (namespace === undefined || namespaceOf(object) === namespace));

/** The object of a kind and name in a namespace, or undefined. */
export const find = (objects, kind, name, namespace) => ofKind(objects, kind, namespace).find((object) => object.metadata?.name === name);

/** The pod template (`{ metadata, spec }`) of a workload, or null for objects that run no pods. */
export function podTemplateOf(object) {
  switch (object?.kind) {
    case 'Pod':
      return { metadata: object.metadata ?? {}, spec: object.spec ?? {} };
    case 'CronJob':
      return object.spec?.jobTemplate?.spec?.template ?? null;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'Job':
      return object.spec?.template ?? null;
    default:
      return null;
  }
}

/** Every object that runs pods, with its template. */
export const workloadsOf = (objects) => objects.flatMap((object) => (podTemplateOf(object) ? [{ object, template: podTemplateOf(object) }] : []));

/** The containers of a pod spec, init containers flagged, each with a label for messages. */
export function containersOf(spec) {
  return [
    ...(spec?.initContainers ?? []).map((container) => ({ container, init: true, label: `initContainer ${container.name}` })),
    ...(spec?.containers ?? []).map((container) => ({ container, init: false, label: `container ${container.name}` })),
  ];
}

/** Whether a LabelSelector (matchLabels and matchExpressions) selects these labels; an empty selector selects all. */
export function selects(selector, labels = {}) {
  if (!selector) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    const ok = {
      In: has && values.includes(labels[key]),
      NotIn: !has || !values.includes(labels[key]),
      Exists: has,
      DoesNotExist: !has,
    }[operator];
    if (!ok) return false;
  }
  return true;
}

const UNITS = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const BINARY = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/** A Kubernetes quantity (`100m`, `512Mi`, `1.5`, `1e3`) as a number, or NaN when it is none. */
export function quantity(value) {
  if (typeof value === 'number') return value;
  const match = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:[eE]([+-]?\d+))?([a-zA-Z]*)$/.exec(String(value ?? '').trim());
  if (!match) return Number.NaN;
  const factor = BINARY[match[3]] ?? UNITS[match[3]];
  if (factor === undefined) return Number.NaN;
  return Number(match[1]) * 10 ** Number(match[2] ?? 0) * factor;
}

/** The tag and digest of an image reference (`registry:5000/team/app:1.2@sha256:…`); null where absent. */
export function imageReference(image) {
  const [name, digest = null] = String(image).split('@');
  const last = name.slice(name.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  return { tag: colon < 0 ? null : last.slice(colon + 1), digest };
}

/**
 * The environment a container would get, as far as the rendered output tells: name → `{ value, from }` for literals
 * and ConfigMap keys, `{ secret: true, from }` for Secret keys (their values are never in the output), `{ missing:
 * true, from }` for a ConfigMap key that is not there. Later sources win as in the kubelet: envFrom in order, then env.
 */
export function containerEnv(container, objects, namespace) {
  const env = new Map();
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    if (source.configMapRef) {
      const configMap = find(objects, 'ConfigMap', source.configMapRef.name, namespace);
      for (const [key, value] of Object.entries(configMap?.data ?? {})) env.set(prefix + key, { value: String(value), from: `ConfigMap/${source.configMapRef.name}` });
    }
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom;
    if (ref?.configMapKeyRef) {
      const { name, key } = ref.configMapKeyRef;
      const data = find(objects, 'ConfigMap', name, namespace)?.data ?? {};
      const from = `ConfigMap/${name} key ${key}`;
      env.set(entry.name, Object.prototype.hasOwnProperty.call(data, key) ? { value: String(data[key]), from } : { missing: true, from });
    } else if (ref?.secretKeyRef) {
      env.set(entry.name, { secret: true, from: `Secret/${ref.secretKeyRef.name} key ${ref.secretKeyRef.key}` });
    } else if (ref) {
      env.set(entry.name, { computed: true, from: 'a field of the pod' });
    } else {
      env.set(entry.name, { value: String(entry.value ?? ''), from: 'env' });
    }
  }
  return env;
}

/** The app a container runs: its `APP`, an `apps/<app>/` path or app name in its command, or its pod's name labels. */
export function appOf(object, template, container, env, apps) {
  const known = (name) => (apps.includes(name) ? name : null);
  const fromEnv = env.get('APP')?.value;
  if (fromEnv && known(fromEnv)) return fromEnv;
  for (const word of [...(container.command ?? []), ...(container.args ?? [])]) {
    const app = known(/apps\/([^/]+)\//.exec(String(word))?.[1]) ?? known(String(word));
    if (app) return app;
  }
  const labels = template.metadata?.labels ?? {};
  return known(labels['app.kubernetes.io/name']) ?? known(labels.app) ?? known(object.metadata?.name);
}

/** The HPAs of the output by the workload they scale (`Kind/name` in their namespace). */
export function autoscalersByTarget(objects) {
  const byTarget = new Map();
  for (const hpa of ofKind(objects, 'HorizontalPodAutoscaler')) {
    const ref = hpa.spec?.scaleTargetRef ?? {};
    byTarget.set(`${namespaceOf(hpa)}|${ref.kind}/${ref.name}`, hpa);
  }
  return (object) => byTarget.get(`${namespaceOf(object)}|${idOf(object)}`);
}
