// CI: the Kubernetes overlays render and keep the rules (ADR 0052), with no cluster. Renders each overlay with
// `kubectl kustomize`, validates every object against the Kubernetes OpenAPI schemas (kubernetes-models, offline),
// then checks probes, resources, securityContext, image tags, Secret literals, PodDisruptionBudgets, autoscalers,
// NetworkPolicies, ServiceAccounts, grace periods and the PostgreSQL connection budget. One line per overlay; one
// line per violation, naming the object and the rule; exit 1 on any.
// Each default overlay is checked twice: as it is (the Gateway API edge) and with the Ingress component (ADR 0076).
//   node scripts/check-k8s.mjs [overlay dirs...]   (default: k8s/overlays/dev k8s/overlays/prod, each also + ingress)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { ROOT } from './lib/system.mjs';
import { appFacts } from './lib/k8s-app-facts.mjs';
import { RULES, checkObjects } from './lib/k8s-rules.mjs';
import { validateSchemas } from './lib/k8s-schemas.mjs';

const DEFAULT_OVERLAYS = ['k8s/overlays/dev', 'k8s/overlays/prod'];
const INGRESS_COMPONENT = 'k8s/components/ingress';

/** The objects `kubectl kustomize <dir>` renders, or a line saying why there are none. */
function render(dir) {
  if (!existsSync(dir)) return { error: 'does not exist' };
  const result = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
  if (result.error?.code === 'ENOENT') return { error: 'kubectl is not installed (it carries kustomize): install kubectl' };
  if (result.status !== 0) return { error: `kubectl kustomize failed: ${(result.stderr || result.error?.message || '').trim()}` };
  const documents = parseAllDocuments(result.stdout);
  const broken = documents.find((document) => document.errors.length > 0);
  if (broken) return { error: `the rendered output does not parse: ${broken.errors[0].message}` };
  return { objects: documents.map((document) => document.toJS()).filter((object) => object !== null && object !== undefined) };
}

/**
 * The overlay as a user would render it with one more component: a copy beside it (so its relative paths hold) whose
 * kustomization lists the component, rendered and removed.
 */
function renderWith(dir, component) {
  const copy = join(dirname(dir), `.${basename(dir)}-with-${basename(component)}-${process.pid}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true });
  try {
    const file = join(copy, 'kustomization.yaml');
    const kustomization = parseDocument(readFileSync(file, 'utf8'));
    kustomization.set('components', [...(kustomization.toJS().components ?? []), relative(copy, resolve(ROOT, component))]);
    writeFileSync(file, kustomization.toString());
    return render(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

const facts = appFacts();
const variants = process.argv.length > 2
  ? process.argv.slice(2).map((overlay) => ({ overlay }))
  : DEFAULT_OVERLAYS.flatMap((overlay) => [{ overlay }, { overlay, component: INGRESS_COMPONENT }]);
let failed = false;
for (const { overlay, component } of variants) {
  const dir = resolve(ROOT, overlay);
  const name = (dir.startsWith(ROOT + sep) ? relative(ROOT, dir) : dir) + (component ? ` + ${basename(component)}` : '');
  const rendered = component ? renderWith(dir, component) : render(dir);
  if (rendered.error) {
    console.error(`${name}: ${rendered.error}`);
    failed = true;
    continue;
  }
  const schemas = await validateSchemas(rendered.objects);
  const checked = checkObjects(rendered.objects, facts);
  const violations = [...schemas.violations, ...checked.violations];
  for (const { object, rule, message } of violations) console.error(`${name}: ${object}: [${rule}] ${message}`);
  const { budget } = checked;
  const budgetText = budget.limit === null ? 'budget unknown' : `budget ${budget.used}/${budget.limit} connections`;
  const skippedText = schemas.skipped.length > 0 ? ` (schema skipped for ${schemas.skipped.join(', ')})` : '';
  console.log(
    `${name}: ${rendered.objects.length} objects${skippedText}, ${RULES.length + 1} rules in ${checked.checks + rendered.objects.length} checks, ${budgetText}: ` +
      (violations.length === 0 ? 'ok' : `${violations.length} violation(s)`),
  );
  failed ||= violations.length > 0;
}
process.exit(failed ? 1 : 0);
