// CI: deploy/observability/ says what the code defines (ADR 0048). Fails when a YAML or JSON file does not parse, a
// dashboard or alert names a metric no code registers, an alert has no runbook entry in docs/operations.md, a metric
// the code registers is missing from the operations "Metrics" section, or Prometheus scrapes a host compose lacks.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ROOT } from './lib/system.mjs';
import { filesUnder } from './lib/files-under.mjs';
import { RUNBOOK_BASE_URL } from './slo-rules.mjs';

const DIR = join(ROOT, 'deploy/observability');
const problems = [];
const problem = (line) => problems.push(line);
const read = (path) => readFileSync(path, 'utf8');
const rel = (path) => relative(ROOT, path);

function parsed(path, parser) {
  try {
    return parser(read(path));
  } catch (error) {
    problem(`${rel(path)} does not parse: ${error.message}`);
    return null;
  }
}

// 1. Every file parses.
const yamls = Object.fromEntries(filesUnder(DIR, /\.ya?ml$/).map((path) => [rel(path), parsed(path, parse)]));
const dashboards = filesUnder(join(DIR, 'grafana/dashboards'), /\.json$/).map((path) => ({ path: rel(path), json: parsed(path, JSON.parse) }));
const compose = parsed(join(ROOT, 'docker-compose.yml'), parse);

// 2. The metrics the code registers: server-kit and the apps by `name: 'market_…'`, prom-client's defaults by running them.
const registered = new Map();
for (const file of [...filesUnder(join(ROOT, 'libs'), /\.ts$/), ...filesUnder(join(ROOT, 'apps'), /\.ts$/)]) {
  if (/\.(spec|int-spec)\.ts$/.test(file)) continue;
  for (const match of read(file).matchAll(/(?:counter|histogram|gauge|collectedGauge)\(\s*\{\s*name:\s*'([a-z_:][a-z0-9_:]*)'/g)) registered.set(match[1], rel(file));
}
const defaults = new Registry();
collectDefaultMetrics({ register: defaults });
const defaultMetrics = new Set((await defaults.getMetricsAsJSON()).map((metric) => metric.name));
const known = (name) => {
  for (const candidate of [name, name.replace(/_(bucket|count|sum)$/, '')]) if (registered.has(candidate) || defaultMetrics.has(candidate)) return true;
  return name === 'up';
};
if (registered.size === 0) problem('found no metric registered in the code (the pattern that finds them is out of date)');

/** The metric names a PromQL expression reads: identifiers outside label matchers, strings and function calls. */
function metricNames(expr) {
  const bare = expr.replace(/"[^"]*"/g, '""').replace(/\{[^}]*\}/g, '').replace(/\[[^\]]*\]/g, '');
  const keywords = new Set(['sum', 'min', 'max', 'avg', 'count', 'group', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset']);
  return [...bare.matchAll(/(?<![\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)(?![\w:])(?!\s*\()/g)]
    .map((m) => m[1])
    .filter((name) => !keywords.has(name) && !/^\d/.test(name) && !/^(le|inf|nan)$/i.test(name))
    // Words inside by (...) / without (...) are label names, not metrics.
    .filter((name) => !new RegExp(`(by|without|on|ignoring)\\s*\\([^)]*\\b${name}\\b[^)]*\\)`).test(bare));
}

// 3. Every metric an alert or a dashboard reads exists; every alert has a runbook entry.
const operations = read(join(ROOT, 'docs/operations.md'));
const anchors = new Set(operations.split('\n').filter((line) => /^#{2,4} /.test(line)).map((line) => line.replace(/^#+ /, '').trim().toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
// The recorded series (slo:...) are known once a rule records them; alerts and dashboards may read them.
const ruleFiles = ['deploy/observability/alerts.yml', 'deploy/observability/slo-rules.yml'];
const allRules = ruleFiles.flatMap((file) => (yamls[file]?.groups ?? []).flatMap((group) => group.rules ?? []));
const recorded = new Set(allRules.filter((rule) => rule.record).map((rule) => rule.record));
const knownOrRecorded = (name) => known(name) || recorded.has(name);
const rules = allRules.filter((rule) => rule.alert);
if (rules.length === 0) problem('deploy/observability has no alert rules');
for (const rule of allRules) {
  const what = rule.alert ? `alert ${rule.alert}` : `recording rule ${rule.record}`;
  for (const name of metricNames(String(rule.expr))) if (!knownOrRecorded(name)) problem(`${what} reads ${name}, which no code registers and no rule records`);
  if (!rule.alert) continue;
  const url = String(rule.annotations?.runbook_url ?? '');
  const anchor = url.split('#')[1];
  if (!url.startsWith(`${RUNBOOK_BASE_URL}#`) || !anchors.has(anchor)) problem(`alert ${rule.alert}: its runbook_url ${url || '(none)'} is no section of docs/operations.md under ${RUNBOOK_BASE_URL}`);
}
for (const { path, json } of dashboards) {
  if (!json) continue;
  if (!json.uid || !json.title || !Array.isArray(json.panels) || json.panels.length === 0) problem(`${path} is no dashboard (uid, title and panels)`);
  // Any cluster's Prometheus, any namespace and job (ADR 0075): the variables exist and every query uses them.
  const variables = new Set((json.templating?.list ?? []).map((variable) => variable.name));
  for (const wanted of ['datasource', 'namespace', 'job']) if (!variables.has(wanted)) problem(`${path} has no $${wanted} variable`);
  for (const panel of json.panels ?? []) {
    for (const target of panel.targets ?? []) {
      if (target.datasource?.uid !== '${datasource}') problem(`${path}: panel "${panel.title}" does not read the $datasource variable`);
      const unscoped = [...String(target.expr).matchAll(/\b((?:market|nodejs)_[a-z0-9_]+)(\{[^}]*\})?/g)].filter((m) => !/namespace=~"\$namespace",job=~"\$job"/.test(m[2] ?? ''));
      if (unscoped.length > 0) problem(`${path}: panel "${panel.title}" reads ${unscoped[0][1]} outside the $namespace and $job variables`);
      for (const name of metricNames(String(target.expr))) if (!knownOrRecorded(name)) problem(`${path}: panel "${panel.title}" reads ${name}, which no code registers`);
    }
  }
}
for (const wanted of ['storm.json', 'business.json']) if (!dashboards.some((d) => d.path.endsWith(wanted))) problem(`deploy/observability/grafana/dashboards/${wanted} is missing`);

// 4. The operations guide lists every metric the code registers.
for (const [name, file] of registered) if (!operations.includes(`\`${name}\``)) problem(`docs/operations.md does not list the metric \`${name}\` (${file})`);

// 5. Prometheus scrapes hosts compose runs, and loads the alert rules.
const prometheus = yamls['deploy/observability/prometheus.yml'];
const services = new Set(Object.keys(compose?.services ?? {}));
for (const job of prometheus?.scrape_configs ?? []) {
  for (const target of (job.static_configs ?? []).flatMap((c) => c.targets ?? [])) {
    const host = String(target).split(':')[0];
    if (host !== 'localhost' && !services.has(host)) problem(`prometheus.yml scrapes ${target}, which docker-compose.yml does not run`);
  }
}
for (const wanted of ['alerts.yml', 'slo-rules.yml']) if (!(prometheus?.rule_files ?? []).some((file) => String(file).endsWith(`/${wanted}`))) problem(`prometheus.yml does not load ${wanted}`);
for (const name of ['prometheus', 'grafana', 'otel-collector', 'jaeger']) {
  const service = compose?.services?.[name];
  if (!service) problem(`docker-compose.yml has no ${name} service`);
  else if (!(service.profiles ?? []).includes('observability')) problem(`docker-compose.yml: ${name} is not in the observability profile`);
  else if (!/:[^:]*\d/.test(String(service.image)) || /:latest$/.test(String(service.image))) problem(`docker-compose.yml: ${name}'s image ${service.image} has no pinned version`);
}

if (problems.length > 0) {
  console.error(problems.map((line) => `- ${line}`).join('\n'));
  console.error(`\n${problems.length} problem(s) in deploy/observability`);
  process.exit(1);
}
console.log(`deploy/observability: ${rules.length} alerts and ${dashboards.length} dashboards read only the ${registered.size} metrics the code registers (and Node's defaults)`);
