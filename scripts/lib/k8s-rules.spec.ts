import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { databaseEnv } from '../../libs/server-kit/src/config/database-env';
// @ts-expect-error plain ESM script without type declarations
import { appFacts } from './k8s-app-facts.mjs';
// @ts-expect-error plain ESM script without type declarations
import { imageReference, quantity, selects } from './k8s-objects.mjs';
// @ts-expect-error plain ESM script without type declarations
import { checkObjects } from './k8s-rules.mjs';
// @ts-expect-error plain ESM script without type declarations
import { validateSchemas } from './k8s-schemas.mjs';

/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML objects are untyped by nature */
type K8sObject = Record<string, any>;
interface Violation {
  rule: string;
  object: string;
  message: string;
}

const GOOD = join(__dirname, '..', 'fixtures', 'k8s', 'good');
const facts = appFacts();

/** The good fixture's objects, as kustomize would render them (every object carries its namespace already). */
function goodObjects(): K8sObject[] {
  return readdirSync(GOOD)
    .filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml')
    .flatMap((name) => parseAllDocuments(readFileSync(join(GOOD, name), 'utf8')).map((document) => document.toJS()));
}

/** The good fixture with one change planted. */
function planted(change: (objects: K8sObject[], get: (id: string) => K8sObject) => void): K8sObject[] {
  const objects = goodObjects();
  const get = (id: string) => {
    const found = objects.find((object) => `${object.kind}/${object.metadata.name}` === id);
    if (!found) throw new Error(`the fixture has no ${id}`);
    return found;
  };
  change(objects, get);
  return objects;
}

const violationsOf = (objects: K8sObject[]): Violation[] => checkObjects(objects, facts).violations;
const container = (deployment: K8sObject) => deployment.spec.template.spec.containers[0];
const remove = (objects: K8sObject[], id: string) => objects.splice(objects.findIndex((object) => `${object.kind}/${object.metadata.name}` === id), 1);

describe('the manifest rules (ADR 0052)', () => {
  it('pass the good fixture, whose budget is 80 of 90 connections', () => {
    const result = checkObjects(goodObjects(), facts);
    expect(result.violations).toEqual([]);
    expect(result.budget).toMatchObject({ used: 80, limit: 90, maxConnections: 100, reserve: 10 });
    // The gateway holds no pool; bidding at its HPA maximum plus surge, auth at its replicas plus surge, default pool, and
    // the migration Job (default pool) while the old pods still run.
    expect(result.budget.lines.sort()).toEqual(['Deployment/auth-service (2 + 1 surge) × 10 = 30', 'Deployment/bidding-service (6 + 2 surge) × 5 = 40', 'Job/auth-service-migrate × 10 = 10']);
    expect(result.checks).toBeGreaterThan(80);
  });

  it('keeps free what the overlay reserves (POSTGRES_RESERVED_CONNECTIONS), never less than its own reserve', () => {
    const withReserve = (value: string) => {
      const objects = goodObjects();
      objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === 'platform')!.data.POSTGRES_RESERVED_CONNECTIONS = value;
      return checkObjects(objects, facts);
    };
    expect(withReserve('30').budget).toMatchObject({ used: 80, limit: 70, reserve: 30 });
    expect(withReserve('30').violations).toContainEqual({ rule: 'db-budget', object: 'ConfigMap/platform', message: expect.stringMatching(/80 PostgreSQL connections, over 70/) });
    expect(withReserve('2').budget).toMatchObject({ limit: 90, reserve: 10 });
    expect(withReserve('some').violations).toContainEqual({ rule: 'db-budget', object: 'ConfigMap/platform', message: 'POSTGRES_RESERVED_CONNECTIONS "some" is not a positive integer' });
  });

  const cases: Array<[string, (objects: K8sObject[], get: (id: string) => K8sObject) => void, string, string, RegExp]> = [
    ['an image on latest', (_, get) => (container(get('Deployment/gateway')).image = 'registry.example.com/site-market:latest'), 'image-tag', 'Deployment/gateway', /container gateway .*tag latest/],
    ['an image with no tag', (_, get) => (container(get('Job/auth-service-migrate')).image = 'registry.example.com/site-market'), 'image-tag', 'Job/auth-service-migrate', /no tag/],
    ['a missing startup probe', (_, get) => delete container(get('Deployment/bidding-service')).startupProbe, 'probes', 'Deployment/bidding-service', /container bidding-service has no startupProbe/],
    ['a missing readiness probe', (_, get) => delete container(get('Deployment/gateway')).readinessProbe, 'probes', 'Deployment/gateway', /no readinessProbe/],
    ['a missing memory limit', (_, get) => delete container(get('Deployment/auth-service')).resources.limits, 'resources', 'Deployment/auth-service', /resources\.limits\.memory/],
    ['a missing cpu request', (_, get) => delete container(get('Job/auth-service-migrate')).resources.requests.cpu, 'resources', 'Job/auth-service-migrate', /resources\.requests\.cpu/],
    ['a request above its limit', (_, get) => (container(get('Deployment/bidding-service')).resources.requests.cpu = '1500m'), 'resources', 'Deployment/bidding-service', /requests more cpu/],
    ['a root user', (_, get) => (get('Deployment/gateway').spec.template.spec.securityContext.runAsNonRoot = false), 'security-context', 'Deployment/gateway', /runAsNonRoot/],
    ['user 0', (_, get) => (container(get('Deployment/gateway')).securityContext.runAsUser = 0), 'security-context', 'Deployment/gateway', /runAsUser/],
    ['a writable root filesystem', (_, get) => delete container(get('Deployment/auth-service')).securityContext.readOnlyRootFilesystem, 'security-context', 'Deployment/auth-service', /readOnlyRootFilesystem/],
    ['privilege escalation', (_, get) => (container(get('Job/auth-service-migrate')).securityContext.allowPrivilegeEscalation = true), 'security-context', 'Job/auth-service-migrate', /allowPrivilegeEscalation/],
    ['capabilities kept', (_, get) => (container(get('Deployment/gateway')).securityContext.capabilities.drop = ['NET_RAW']), 'security-context', 'Deployment/gateway', /drop ALL/],
    ['an unconfined container in a RuntimeDefault pod', (_, get) => (container(get('Deployment/gateway')).securityContext.seccompProfile = { type: 'Unconfined' }), 'security-context', 'Deployment/gateway', /seccompProfile Unconfined/],
    ['a host network', (_, get) => (get('Deployment/gateway').spec.template.spec.hostNetwork = true), 'security-context', 'Deployment/gateway', /hostNetwork/],
    ['a Secret with literals', (objects) => objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'stripe', namespace: 'fixture' }, stringData: { STRIPE_SECRET_KEY: 'sk_live_x' } }), 'secret-literal', 'Secret/stripe', /STRIPE_SECRET_KEY/],
    ['an HPA whose target is missing', (_, get) => (get('HorizontalPodAutoscaler/bidding-service').spec.scaleTargetRef.name = 'bidding'), 'hpa-target', 'HorizontalPodAutoscaler/bidding-service', /Deployment\/bidding, which is not in the output/],
    ['replicas beside an HPA', (_, get) => (get('Deployment/bidding-service').spec.replicas = 2), 'hpa-replicas', 'Deployment/bidding-service', /HorizontalPodAutoscaler\/bidding-service owns the count/],
    ['no PDB for two replicas', (objects) => remove(objects, 'PodDisruptionBudget/auth-service'), 'pdb', 'Deployment/auth-service', /up to 2 replicas and no PodDisruptionBudget/],
    ['no PDB for an HPA above one', (objects) => remove(objects, 'PodDisruptionBudget/gateway'), 'pdb', 'Deployment/gateway', /up to 4 replicas/],
    ['a PDB that blocks drains', (_, get) => (get('PodDisruptionBudget/auth-service').spec = { minAvailable: 2, selector: { matchLabels: { 'app.kubernetes.io/name': 'auth-service' } } }), 'pdb', 'Deployment/auth-service', /allows no disruption/],
    ['pods no NetworkPolicy selects', (_, get) => (get('NetworkPolicy/default-deny').spec.podSelector = { matchLabels: { tier: 'web' } }), 'network-policy', 'Job/auth-service-migrate', /selected by no NetworkPolicy/],
    ['a ServiceAccount that mounts its token', (_, get) => delete get('ServiceAccount/gateway').automountServiceAccountToken, 'service-account', 'ServiceAccount/gateway', /automountServiceAccountToken: false/],
    ['a pod on the default ServiceAccount', (_, get) => delete get('Deployment/gateway').spec.template.spec.serviceAccountName, 'service-account', 'Deployment/gateway', /default ServiceAccount/],
    ['no grace period', (_, get) => delete get('Deployment/auth-service').spec.template.spec.terminationGracePeriodSeconds, 'termination-grace', 'Deployment/auth-service', /no terminationGracePeriodSeconds/],
    ['a grace period shorter than the drain', (_, get) => (get('Deployment/gateway').spec.template.spec.terminationGracePeriodSeconds = 15), 'termination-grace', 'Deployment/gateway', /shorter than .*20000 ms/],
    ['a preStop wait eating the grace period', (_, get) => (container(get('Deployment/bidding-service')).lifecycle = { preStop: { exec: { command: ['sh', '-c', 'sleep 6'] } } }), 'termination-grace', 'Deployment/bidding-service', /preStop \+ SHUTDOWN_DELAY_MS \+ DRAIN_TIMEOUT_MS \(26000 ms\)/],
    ['a pool over the budget', (_, get) => (container(get('Deployment/bidding-service')).env[1].value = '20'), 'db-budget', 'ConfigMap/platform', /200 PostgreSQL connections, over 90 .*Deployment\/bidding-service \(6 \+ 2 surge\) × 20 = 160/],
    ['no max_connections', (objects) => remove(objects, 'ConfigMap/platform'), 'db-budget', 'ConfigMap/platform', /no ConfigMap platform with the key POSTGRES_MAX_CONNECTIONS/],
    ['a route from a Gateway not in the output', (_, get) => (get('HTTPRoute/gateway').spec.parentRefs[0].name = 'shared'), 'edge', 'HTTPRoute/gateway', /Gateway\/shared, which is not in the output/],
    ['a route on a listener the Gateway lacks', (_, get) => (get('HTTPRoute/gateway').spec.parentRefs[0].sectionName = 'web'), 'edge', 'HTTPRoute/gateway', /listener web of Gateway\/public, which has http, https/],
    ['a route to a Service port that does not exist', (_, get) => (get('HTTPRoute/gateway').spec.rules[0].backendRefs[0].port = 3000), 'edge', 'HTTPRoute/gateway', /rule 0 sends to Service\/gateway port 3000/],
    ['an HTTPS listener without a certificate', (_, get) => delete get('Gateway/public').spec.listeners[1].tls, 'edge', 'Gateway/public', /listener https is HTTPS without a certificate/],
    ['an Ingress to a missing Service', (objects) => objects.push({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'old', namespace: 'fixture' }, spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'http' } } } }] } }] } }), 'edge', 'Ingress/old', /Service\/web port http/],
    ['both edges at once', (objects) => objects.push({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'old', namespace: 'fixture' }, spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'gateway', port: { number: 80 } } } }] } }] } }), 'edge', 'Service/gateway', /exposed by both an HTTPRoute and an Ingress/],
    ['a pool size kept in a Secret', (_, get) => (container(get('Deployment/bidding-service')).env[1] = { name: 'DB_POOL_SIZE', valueFrom: { secretKeyRef: { name: 'x', key: 'y' } } }), 'db-budget', 'Deployment/bidding-service', /cannot read/],
  ];

  it.each(cases)('fail on %s, naming the object and the rule', (_, change, rule, object, message) => {
    const violations = violationsOf(planted(change));
    expect(violations).toContainEqual({ rule, object, message: expect.stringMatching(message) });
    // Nothing else in the fixture is blamed for it.
    expect(violations.filter((violation) => violation.rule !== rule)).toEqual([]);
  });

  it('exempt Jobs from probes and drain times, not from resources or securityContext', () => {
    const violations = violationsOf(planted((_, get) => delete container(get('Job/auth-service-migrate')).securityContext));
    expect(violations.map((violation) => violation.object)).toEqual(expect.arrayContaining(['Job/auth-service-migrate']));
    expect(violations.every((violation) => violation.rule === 'security-context')).toBe(true);
  });

  it('budget a pool from the platform ConfigMap through envFrom, and count a Recreate Deployment without surge', () => {
    const objects = planted((_, get) => {
      const bidding = get('Deployment/bidding-service');
      container(bidding).env.splice(1, 1);
      container(bidding).envFrom = [{ configMapRef: { name: 'platform' } }];
      get('ConfigMap/platform').data.DB_POOL_SIZE = '3';
      bidding.spec.strategy = { type: 'Recreate' };
    });
    expect(checkObjects(objects, facts).budget.lines).toContain('Deployment/bidding-service (6) × 3 = 18');
  });
});

describe('the schema validation (ADR 0052)', () => {
  it('accepts the good fixture and skips the listed custom resources by name', async () => {
    await expect(validateSchemas(goodObjects())).resolves.toEqual({ violations: [], skipped: ['Certificate/market-tls'] });
  });

  it('names the object and the field a schema refuses, and an unknown kind', async () => {
    const objects = planted((objects, get) => {
      get('Deployment/auth-service').spec.replicas = 'two';
      objects.push({ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'typo' } });
      get('HTTPRoute/gateway').spec.rules[0].timeouts.request = 'two minutes';
    });
    const { violations } = await validateSchemas(objects);
    expect(violations).toEqual([
      { rule: 'schema', object: 'Deployment/auth-service', message: expect.stringContaining('/spec/replicas must be integer') },
      // The Gateway API's own CRD schema (ADR 0076), not a skip by name.
      { rule: 'schema', object: 'HTTPRoute/gateway', message: expect.stringContaining('/spec/rules/0/timeouts/request must match pattern') },
      { rule: 'schema', object: 'Deploymnet/typo', message: expect.stringContaining('apps/v1/Deploymnet has no Kubernetes schema') },
    ]);
  });

  // The monitoring component's PodMonitors and PrometheusRule against the Prometheus Operator's CRD schemas (ADR 0075):
  // without a cluster this is the only check, and a wrong object would otherwise first fail at apply time.
  const MONITORING = join(__dirname, '..', '..', 'k8s', 'components', 'monitoring');
  const monitoringObjects = (): K8sObject[] =>
    ['podmonitors.yaml', 'prometheus-rules.yaml'].flatMap((name) => parseAllDocuments(readFileSync(join(MONITORING, name), 'utf8')).map((document) => document.toJS()));
  const monitoring = (id: string, objects: K8sObject[]) => objects.find((object) => `${object.kind}/${object.metadata.name}` === id)!;

  it('accepts the monitoring component, and names a PodMonitor field of the wrong type and a duration it cannot read', async () => {
    await expect(validateSchemas(monitoringObjects())).resolves.toEqual({ violations: [], skipped: [] });
    const objects = monitoringObjects();
    // A port number where the CRD takes the container port's name.
    monitoring('PodMonitor/market-gateway', objects).spec.podMetricsEndpoints[0].port = 9464;
    monitoring('PodMonitor/market-services', objects).spec.podMetricsEndpoints[0].interval = '15 seconds';
    const { violations } = await validateSchemas(objects);
    expect(violations).toEqual([
      { rule: 'schema', object: 'PodMonitor/market-services', message: expect.stringContaining('/spec/podMetricsEndpoints/0/interval must match pattern') },
      { rule: 'schema', object: 'PodMonitor/market-gateway', message: '/spec/podMetricsEndpoints/0/port must be string' },
    ]);
  });

  it('names a PrometheusRule rule without its expression, with a label that is not a string, or a bad `for`', async () => {
    const objects = monitoringObjects();
    const rules = monitoring('PrometheusRule/market-rules', objects).spec.groups[0].rules;
    delete rules[0].expr;
    rules[1].labels.severity = 2;
    rules[2].for = 'ten minutes';
    const { violations } = await validateSchemas(objects);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ rule: 'schema', object: 'PrometheusRule/market-rules' });
    expect(violations[0].message).toContain('/spec/groups/0/rules/0 must have required property expr');
    expect(violations[0].message).toContain('/spec/groups/0/rules/1/labels/severity must be string');
    expect(violations[0].message).toContain('/spec/groups/0/rules/2/for must match pattern');
  });
});

describe('what the check reads from the code and the objects', () => {
  it('knows which apps hold a pool and its default', () => {
    expect(facts.databaseApps).toEqual(['admin-service', 'auth-service', 'bidding-service', 'billing-service', 'listings-service', 'notifications-service']);
    expect(facts.apps).toContain('gateway');
    expect(facts.defaults.DB_POOL_SIZE).toBe(z.object(databaseEnv).parse({}).DB_POOL_SIZE);
  });

  it('reads quantities, image references and label selectors as Kubernetes does', () => {
    expect([quantity('100m'), quantity('512Mi'), quantity(2), quantity('1e3'), quantity('1.5Gi')]).toEqual([0.1, 512 * 2 ** 20, 2, 1000, 1.5 * 2 ** 30]);
    expect(Number.isNaN(quantity('ten'))).toBe(true);
    expect(imageReference('registry:5000/team/app')).toEqual({ tag: null, digest: null });
    expect(imageReference('registry:5000/team/app:1.2@sha256:ab')).toEqual({ tag: '1.2', digest: 'sha256:ab' });
    expect(selects({}, { a: '1' })).toBe(true);
    expect(selects(undefined, { a: '1' })).toBe(false);
    expect(selects({ matchLabels: { a: '1' }, matchExpressions: [{ key: 'b', operator: 'NotIn', values: ['2'] }] }, { a: '1', b: '3' })).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'b', operator: 'Exists' }] }, { a: '1' })).toBe(false);
  });
});
