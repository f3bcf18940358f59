// The edge rule of the rendered overlays (ADR 0076): what reaches the gateway from outside points at objects that
// exist. Every HTTPRoute hangs from a Gateway (and listener) of the output and sends to a Service port of it; every
// Ingress backend is a Service port; an HTTPS listener has its certificate; and a Service is exposed by one kind of edge
// only, the Gateway API or the Ingress component, never both (two doors with two sets of limits).
import { find, namespaceOf, ofKind } from './k8s-objects.mjs';

const GATEWAY_GROUP = 'gateway.networking.k8s.io';

/** True when a Service has a port matching a route's reference (a number matches `port`, a name matches `name`). */
const hasPort = (service, port) => (service.spec?.ports ?? []).some((item) => (typeof port === 'number' ? item.port === port : item.name === port));

/** Checks the edge objects; `rule(name, object, ok, message)` records each check as k8s-rules.mjs does. */
export function checkEdge(objects, rule) {
  const exposedBy = new Map();
  const expose = (namespace, service, kind) => {
    const key = `${namespace}/${service}`;
    exposedBy.set(key, new Set([...(exposedBy.get(key) ?? []), kind]));
  };

  for (const route of ofKind(objects, 'HTTPRoute')) {
    const namespace = namespaceOf(route);
    for (const parent of route.spec?.parentRefs ?? []) {
      // A parent in another namespace (a shared Gateway the cluster runs) is outside what the overlay renders.
      if ((parent.group ?? GATEWAY_GROUP) !== GATEWAY_GROUP || (parent.kind ?? 'Gateway') !== 'Gateway' || (parent.namespace ?? namespace) !== namespace) continue;
      const gateway = find(objects, 'Gateway', parent.name, namespace);
      rule('edge', route, Boolean(gateway), `hangs from Gateway/${parent.name}, which is not in the output`);
      if (gateway && parent.sectionName !== undefined) {
        const listeners = (gateway.spec?.listeners ?? []).map((listener) => listener.name);
        rule('edge', route, listeners.includes(parent.sectionName), `names listener ${parent.sectionName} of Gateway/${parent.name}, which has ${listeners.join(', ') || 'none'}`);
      }
    }
    for (const [index, item] of (route.spec?.rules ?? []).entries()) {
      for (const backend of item.backendRefs ?? []) {
        if ((backend.group ?? '') !== '' || (backend.kind ?? 'Service') !== 'Service') continue;
        const service = find(objects, 'Service', backend.name, backend.namespace ?? namespace);
        rule('edge', route, Boolean(service) && hasPort(service, backend.port), `rule ${index} sends to Service/${backend.name} port ${backend.port}, which is not in the output`);
        expose(backend.namespace ?? namespace, backend.name, 'HTTPRoute');
      }
    }
  }

  for (const ingress of ofKind(objects, 'Ingress')) {
    const namespace = namespaceOf(ingress);
    const backends = [ingress.spec?.defaultBackend, ...(ingress.spec?.rules ?? []).flatMap((item) => (item.http?.paths ?? []).map((path) => path.backend))];
    for (const backend of backends.filter((item) => item?.service)) {
      const { name, port = {} } = backend.service;
      const service = find(objects, 'Service', name, namespace);
      rule('edge', ingress, Boolean(service) && hasPort(service, port.number ?? port.name), `sends to Service/${name} port ${port.number ?? port.name}, which is not in the output`);
      expose(namespace, name, 'Ingress');
    }
  }

  for (const gateway of ofKind(objects, 'Gateway')) {
    for (const listener of gateway.spec?.listeners ?? []) {
      if (listener.protocol !== 'HTTPS' || listener.tls?.mode === 'Passthrough') continue;
      rule('edge', gateway, (listener.tls?.certificateRefs ?? []).length > 0, `listener ${listener.name} is HTTPS without a certificate`);
    }
  }

  for (const [key, kinds] of exposedBy) {
    const [namespace, name] = key.split('/');
    const service = find(objects, 'Service', name, namespace) ?? { kind: 'Service', metadata: { name } };
    rule('edge', service, kinds.size === 1, 'is exposed by both an HTTPRoute and an Ingress: keep one edge (the Ingress component deletes the Gateway API objects)');
  }
}
