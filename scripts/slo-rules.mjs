// npm run slo-rules: writes deploy/observability/slo-rules.yml and the Kubernetes PrometheusRule that carries it with
// alerts.yml (k8s/components/monitoring/prometheus-rules.yaml); with --check, says whether both are current. From the
// service level objectives below, which docs/slo.md explains. Each SLO is a ratio of bad events to all events; the file
// records that ratio over the windows the SRE workbook's multi-window, multi-burn-rate alerts read, and holds those
// alerts: a fast burn (2% of a 30-day budget in an hour, or 5% in six) and a slow burn (10% in three days, or in a day).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT } from './lib/system.mjs';

/** Where the runbooks are read: docs/operations.md as the team publishes it. One place: set RUNBOOK_BASE_URL to move it. */
export const RUNBOOK_BASE_URL = process.env.RUNBOOK_BASE_URL ?? 'https://docs.sitemarket.example/operations';
const OUT = join(ROOT, 'deploy/observability/slo-rules.yml');
const ALERTS = join(ROOT, 'deploy/observability/alerts.yml');
const K8S_RULES = join(ROOT, 'k8s/components/monitoring/prometheus-rules.yaml');
const WINDOWS = ['5m', '30m', '1h', '2h', '6h', '1d', '3d'];

// Outcomes of a bid request that are not a decision: the system shed it or could not answer (they spend other budgets).
const NOT_DECIDED = 'overloaded|unavailable|database_unavailable|internal|request_timeout';
const http = (selector, w) => `sum(rate(market_http_request_duration_seconds_count${selector}[${w}]))`;
// A bucket's bound. Prometheus 3 stores a whole-number bound as a float (`le="2.0"`) whatever the exposition says, and
// prom-client writes `le="2"`, which Prometheus 2 kept as it is: a whole bound matches both, so the rules read either
// (ADR 0077). Fractional bounds (`0.5`) are written alike by both.
const leMatcher = (le) => (Number.isInteger(Number(le)) ? `le=~"${le}(\\\\.0)?"` : `le="${le}"`);
const bucket = (metric, selector, le, w) => {
  const matchers = selector.replace(/^\{|\}$/g, '');
  return `sum(rate(${metric}_bucket{${matchers ? `${matchers},` : ''}${leMatcher(le)}}[${w}]))`;
};
const count = (metric, selector, w) => `sum(rate(${metric}_count${selector}[${w}]))`;
const zero = (expr) => `(${expr} or vector(0))`;

/**
 * The objectives: `bad` and `total` are PromQL over a window `w` (counters), or `stale` a 0/1 expression the SLO
 * averages over the window (a gauge). `page`: a fast burn pages; otherwise it opens a ticket like a slow one.
 */
export const SLOS = [
  {
    name: 'api_availability',
    alert: 'ApiAvailability',
    title: 'API answers that are not a server failure',
    objective: 0.999,
    page: true,
    bad: (w) => `clamp_min(${zero(http('{status=~"5.."}', w))} - ${zero(`sum(rate(market_http_shed_total[${w}]))`)}, 0)`,
    total: (w) => http('', w),
  },
  {
    name: 'api_shed',
    alert: 'ApiShedding',
    title: 'API requests not turned away on purpose (503 overloaded)',
    objective: 0.99,
    page: true,
    bad: (w) => zero(`sum(rate(market_http_shed_total[${w}]))`),
    total: (w) => http('', w),
  },
  {
    name: 'bid_latency',
    alert: 'BidLatency',
    title: 'decided bids answered within 500 ms',
    objective: 0.99,
    page: true,
    bad: (w) => {
      const selector = `{subject="bidding.place_bid",outcome!~"${NOT_DECIDED}"}`;
      return `clamp_min(${zero(count('market_nats_server_request_duration_seconds', selector, w))} - ${zero(bucket('market_nats_server_request_duration_seconds', selector, '0.5', w))}, 0)`;
    },
    total: (w) => count('market_nats_server_request_duration_seconds', `{subject="bidding.place_bid",outcome!~"${NOT_DECIDED}"}`, w),
  },
  {
    name: 'browse_latency',
    alert: 'BrowseLatency',
    title: 'browse answers (GET /api/listings) within 250 ms',
    objective: 0.99,
    page: false,
    bad: (w) => {
      const selector = '{route="/api/listings",method="GET",status=~"2.."}';
      return `clamp_min(${zero(count('market_http_request_duration_seconds', selector, w))} - ${zero(bucket('market_http_request_duration_seconds', selector, '0.25', w))}, 0)`;
    },
    total: (w) => count('market_http_request_duration_seconds', '{route="/api/listings",method="GET",status=~"2.."}', w),
  },
  {
    name: 'live_delivery',
    alert: 'LiveFeedDelay',
    title: 'live events on viewers\' sockets within 2 s',
    objective: 0.99,
    page: false,
    bad: (w) => `clamp_min(${zero(count('market_live_delivery_delay_seconds', '', w))} - ${zero(bucket('market_live_delivery_delay_seconds', '', '2', w))}, 0)`,
    total: (w) => count('market_live_delivery_delay_seconds', '', w),
  },
  {
    name: 'email_delivery',
    alert: 'EmailDelay',
    title: 'account emails handed over within a minute of being due, notices within 10 minutes',
    objective: 0.99,
    page: false,
    bad: (w) =>
      `clamp_min(${zero(count('market_email_delivery_delay_seconds', '', w))} - ${zero(bucket('market_email_delivery_delay_seconds', '{class="account"}', '60', w))} - ${zero(
        bucket('market_email_delivery_delay_seconds', '{class="notice"}', '600', w),
      )}, 0)`,
    total: (w) => count('market_email_delivery_delay_seconds', '', w),
  },
  {
    name: 'escrow_sweeps',
    alert: 'EscrowSweepsStale',
    title: 'minutes in which the escrow and hold sweeps finished a round in the last 15 minutes',
    objective: 0.999,
    page: true,
    // Either sweep older than 15 minutes (their interval is a minute), or no replica reporting one, is a bad minute.
    stale: `max(time() - max by (sweep) (market_sweep_last_success_timestamp_seconds{sweep=~"escrow_sweep|hold_sweep"}) > bool 900) or vector(1)`,
  },
];

const ratio = (slo, w) => `slo:${slo.name}:error_ratio_rate${w}`;
const anchor = (slo) => `slo-${slo.name.replace(/_/g, '-')}`;

function recordingRules(slo) {
  if (slo.stale) {
    return [
      { record: `slo:${slo.name}:stale`, expr: slo.stale },
      ...WINDOWS.map((w) => ({ record: ratio(slo, w), expr: `avg_over_time(slo:${slo.name}:stale[${w}])` })),
    ];
  }
  return WINDOWS.map((w) => ({ record: ratio(slo, w), expr: `${slo.bad(w)} / clamp_min(${slo.total(w)}, 1e-9)` }));
}

function burnAlerts(slo) {
  const budget = Number((1 - slo.objective).toFixed(6));
  const burn = (factor, long, short) => `(${ratio(slo, long)} > ${factor} * ${budget} and ${ratio(slo, short)} > ${factor} * ${budget})`;
  const annotations = (speed) => ({
    summary: `${slo.title} (objective ${(slo.objective * 100).toFixed(1)}%): the error budget burns ${speed}`,
    runbook_url: `${RUNBOOK_BASE_URL}#${anchor(slo)}`,
  });
  return [
    {
      alert: `${slo.alert}FastBurn`,
      expr: `${burn(14.4, '1h', '5m')} or ${burn(6, '6h', '30m')}`,
      for: '2m',
      labels: { severity: slo.page ? 'page' : 'ticket', slo: slo.name },
      annotations: annotations('fast (a month of it in two to five days)'),
    },
    {
      alert: `${slo.alert}SlowBurn`,
      expr: `${burn(3, '1d', '2h')} or ${burn(1, '3d', '6h')}`,
      for: '15m',
      labels: { severity: 'ticket', slo: slo.name },
      annotations: annotations('slowly (a month of it before the month ends)'),
    },
  ];
}

/** The rules file's text. */
export function sloRulesYaml() {
  const document = {
    groups: [
      { name: 'slo-recording', interval: '1m', rules: SLOS.flatMap(recordingRules) },
      { name: 'slo-alerts', rules: SLOS.flatMap(burnAlerts) },
    ],
  };
  const header = '# Written by `npm run slo-rules` from scripts/slo-rules.mjs (the SLOs of docs/slo.md); do not edit by hand.\n';
  return header + stringify(document, { lineWidth: 0 });
}

/** The PrometheusRule of the monitoring component: the groups of alerts.yml and of the SLO rules, as they are. */
export function prometheusRuleYaml(sloText = sloRulesYaml()) {
  const groups = [...(parse(readFileSync(ALERTS, 'utf8')).groups ?? []), ...parse(sloText).groups];
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'market-rules', labels: { 'app.kubernetes.io/part-of': 'site-market' } },
    spec: { groups },
  };
  const header =
    '# Written by `npm run slo-rules` from deploy/observability/alerts.yml and scripts/slo-rules.mjs; do not edit by hand.\n' +
    "# Prometheus loads it when its ruleSelector matches app.kubernetes.io/part-of: site-market (ADR 0075).\n";
  return header + stringify(rule, { lineWidth: 0 });
}

const current = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const text = sloRulesYaml();
  const files = [
    [OUT, text],
    [K8S_RULES, prometheusRuleYaml(text)],
  ];
  if (process.argv.includes('--check')) {
    const stale = files.filter(([path, wanted]) => current(path) !== wanted).map(([path]) => path.slice(ROOT.length + 1));
    if (stale.length > 0) {
      console.error(`${stale.join(' and ')} ${stale.length === 1 ? 'is' : 'are'} not what scripts/slo-rules.mjs writes: run npm run slo-rules`);
      process.exit(1);
    }
    console.log(`deploy/observability/slo-rules.yml and the PrometheusRule are current (${SLOS.length} SLOs)`);
  } else {
    for (const [path, wanted] of files) writeFileSync(path, wanted);
    console.log(`wrote deploy/observability/slo-rules.yml and k8s/components/monitoring/prometheus-rules.yaml (${SLOS.length} SLOs)`);
  }
}
