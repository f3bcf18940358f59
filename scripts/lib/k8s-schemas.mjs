// Validates rendered objects against the Kubernetes OpenAPI schemas without a cluster (ADR 0052): kubernetes-models
// ships one compiled JSON-schema validator per apiVersion and kind, and its sister packages those of CRDs (the
// Prometheus Operator's, ADR 0075; the Gateway API's, ADR 0076). Custom resources it does not know are skipped by
// name only when listed here, so a typo in apiVersion or kind is an error, not a silent skip.
import { idOf } from './k8s-objects.mjs';

/** Custom resources the overlays may use, which no bundled schema covers: apiVersion group → kinds. */
export const CUSTOM_RESOURCES = {
  'cert-manager.io': ['Certificate', 'Issuer', 'ClusterIssuer'],
};

/** Custom resources checked against their project's CRD schemas, packaged like kubernetes-models: group → package. */
const CRD_PACKAGES = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  // The edge (ADR 0076): Gateway and HTTPRoute of the Gateway API's standard channel.
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
};

const models = new Map();

/** The kubernetes-models class of an apiVersion and kind, or null when the package has none. */
async function modelOf(apiVersion, kind) {
  const key = `${apiVersion}|${kind}`;
  if (!models.has(key)) {
    let model = null;
    // The package lays its models out as <group>/<version>/<Kind>, the core group as v1/<Kind>.
    if (/^[a-z0-9.-]*\/?v\d+[a-z0-9]*$/.test(apiVersion) && /^[A-Z][A-Za-z0-9]*$/.test(kind)) {
      try {
        const crdPackage = CRD_PACKAGES[apiVersion.split('/')[0]];
        const module = await import(crdPackage ? `${crdPackage}/${apiVersion}/${kind}` : `kubernetes-models/${apiVersion}/${kind}`);
        const candidate = module[kind];
        // Sub-schemas (v1/Container) are models too: only a top-level kind carries its apiVersion and kind.
        if (candidate?.apiVersion === apiVersion && candidate?.kind === kind) model = candidate;
      } catch {
        model = null;
      }
    }
    models.set(key, model);
  }
  return models.get(key);
}

/** Schema violations of the objects, and the custom resources that were skipped (`Kind/name`). */
export async function validateSchemas(objects) {
  const violations = [];
  const skipped = [];
  for (const object of objects) {
    const { apiVersion, kind } = object ?? {};
    const model = typeof apiVersion === 'string' && typeof kind === 'string' ? await modelOf(apiVersion, kind) : null;
    if (!model) {
      const group = String(apiVersion).split('/')[0];
      if (CUSTOM_RESOURCES[group]?.includes(kind)) skipped.push(idOf(object));
      else violations.push({ rule: 'schema', object: idOf(object), message: `${apiVersion}/${kind} has no Kubernetes schema (a typo, or a custom resource missing from CUSTOM_RESOURCES in scripts/lib/k8s-schemas.mjs)` });
      continue;
    }
    try {
      new model(object).validate();
    } catch (error) {
      const details = error.errors?.map((item) => `${item.instancePath || '/'} ${item.message}`) ?? [error.message];
      violations.push({ rule: 'schema', object: idOf(object), message: [...new Set(details)].slice(0, 5).join('; ') });
    }
  }
  return { violations, skipped };
}
