import { useId } from 'react';
import { AGING_BUCKETS, type InvoiceAnalytics } from '@market/contracts';
import {
  AGING_LABELS,
  axisTicks,
  bars,
  chartMax,
  dayLabel,
  formatAxisMoney,
  formatMoney,
  linePoints,
  revenueSummary,
  yOf,
  type Plot,
} from './admin-billing-figures';

// One coordinate system for both charts: about a phone's width, so labels stay legible at 390 px and scale up on desktop.
const PLOT: Plot = { width: 360, height: 220, left: 46, right: 10, top: 14, bottom: 40 };

function YAxis({ max }: { max: number }) {
  return (
    <g className="chart-axis" aria-hidden="true">
      {axisTicks(max).map((tick) => {
        const y = yOf(tick, max, PLOT);
        return (
          <g key={tick}>
            <line x1={PLOT.left} x2={PLOT.width - PLOT.right} y1={y} y2={y} className="chart-gridline" />
            <text x={PLOT.left - 6} y={y + 4} textAnchor="end">
              {formatAxisMoney(tick)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** Paid revenue per day over the last 30 days: a line with an area, in plain SVG. */
export function RevenueChart({ points }: { points: InvoiceAnalytics['revenue_over_time'] }) {
  const id = useId();
  const max = chartMax(points.map((p) => p.revenue));
  const xy = linePoints(
    points.map((p) => p.revenue),
    max,
    PLOT,
  );
  const base = yOf(0, max, PLOT);
  const line = xy.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  const area = xy.length > 0 ? `${line} L${xy[xy.length - 1].x.toFixed(1)},${base} L${xy[0].x.toFixed(1)},${base} Z` : '';
  const labelled = [0, Math.floor((points.length - 1) / 2), points.length - 1].filter((i, k, all) => i >= 0 && all.indexOf(i) === k);
  return (
    <figure className="card chart-card">
      <figcaption className="chart-caption">Revenue over time (last 30 days)</figcaption>
      <svg viewBox={`0 0 ${PLOT.width} ${PLOT.height}`} className="chart" role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>Paid revenue per day, last 30 days</title>
        <desc id={`${id}-d`}>{revenueSummary(points)}</desc>
        <YAxis max={max} />
        <path d={area} className="chart-area" />
        <path d={line} className="chart-line" />
        {xy.map((p, i) =>
          points[i].revenue > 0 ? (
            <circle key={points[i].date} cx={p.x} cy={p.y} r={3} className="chart-dot">
              <title>{`${dayLabel(points[i].date)}: ${formatMoney(points[i].revenue)}`}</title>
            </circle>
          ) : null,
        )}
        <g className="chart-axis" aria-hidden="true">
          {labelled.map((i) => (
            <text key={i} x={xy[i].x} y={PLOT.height - PLOT.bottom + 18} textAnchor={i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'}>
              {dayLabel(points[i].date)}
            </text>
          ))}
        </g>
      </svg>
    </figure>
  );
}

/** Unpaid invoices by age: one bar per bucket, its amount above and its count below. */
export function AgingChart({ aging }: { aging: InvoiceAnalytics['aging_analysis'] }) {
  const id = useId();
  const amounts = AGING_BUCKETS.map((bucket) => aging[bucket].amount);
  const max = chartMax(amounts);
  const laid = bars(amounts, max, PLOT);
  const summary = AGING_BUCKETS.map((bucket) => `${AGING_LABELS[bucket]}: ${aging[bucket].count} invoices, ${formatMoney(aging[bucket].amount)}`).join('; ');
  return (
    <figure className="card chart-card">
      <figcaption className="chart-caption">Unpaid invoices by age</figcaption>
      <svg viewBox={`0 0 ${PLOT.width} ${PLOT.height}`} className="chart" role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>Unpaid invoice amounts by days since creation</title>
        <desc id={`${id}-d`}>{summary}.</desc>
        <YAxis max={max} />
        {AGING_BUCKETS.map((bucket, i) => (
          <g key={bucket}>
            <rect x={laid[i].x} y={laid[i].y} width={laid[i].width} height={laid[i].height} rx={3} className={`chart-bar chart-bar-${i}`}>
              <title>{`${AGING_LABELS[bucket]}: ${aging[bucket].count} invoices, ${formatMoney(aging[bucket].amount)}`}</title>
            </rect>
            <g className="chart-axis" aria-hidden="true">
              {aging[bucket].amount > 0 && (
                <text x={laid[i].x + laid[i].width / 2} y={laid[i].y - 4} textAnchor="middle" className="chart-value">
                  {formatAxisMoney(aging[bucket].amount)}
                </text>
              )}
              <text x={laid[i].x + laid[i].width / 2} y={PLOT.height - PLOT.bottom + 16} textAnchor="middle">
                {AGING_LABELS[bucket]}
              </text>
              <text x={laid[i].x + laid[i].width / 2} y={PLOT.height - PLOT.bottom + 30} textAnchor="middle" className="chart-count">
                {aging[bucket].count} inv.
              </text>
            </g>
          </g>
        ))}
      </svg>
    </figure>
  );
}
