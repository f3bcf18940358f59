import { useId } from 'react';
import { monthBars, monthLabel, niceMax, yOf, type Plot } from './verified-figures';

/** One series of a monthly chart: its name (legend, table header) and a value per month. */
export interface BarSeries {
  name: string;
  /** The bar's colour class: `month-bar-0`, `month-bar-1`. */
  tone: 0 | 1;
  values: readonly number[];
}

interface MonthlyBarsProps {
  /** The chart's name, read first by screen readers and shown as its caption. */
  title: string;
  /** `YYYY-MM` months, oldest first. */
  months: readonly string[];
  series: readonly BarSeries[];
  /** A value in full, for the text alternative, the tooltips and the table. */
  format: (value: number) => string;
  /** A value kept short for the axis. */
  axis: (value: number) => string;
}

// About a phone's width, so the month labels stay legible at 375 px and scale up on wider screens.
const PLOT: Plot = { width: 320, height: 160, left: 38, right: 2, top: 8, bottom: 20 };

/**
 * Monthly figures as grouped bars in plain SVG: the picture is an image whose description lists every month's values,
 * and the same values are a table a click away (a text alternative for everyone).
 */
export function MonthlyBars({ title, months, series, format, axis }: MonthlyBarsProps) {
  const id = useId();
  const top = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const bars = monthBars(
    series.map((s) => s.values),
    top,
    PLOT,
  );
  const valuesOf = (month: number) => series.map((s) => `${s.name} ${format(s.values[month] ?? 0)}`).join(', ');
  const description = months.map((month, i) => `${monthLabel(month)}: ${valuesOf(i)}`).join('; ');
  const slot = (PLOT.width - PLOT.left - PLOT.right) / Math.max(1, months.length);
  return (
    <figure className="month-bars">
      <figcaption className="month-bars-caption">{title}</figcaption>
      {series.length > 1 && (
        <ul className="month-bars-legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.name}>
              <span className={`month-bars-key month-bar-${s.tone}`} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      <svg viewBox={`0 0 ${PLOT.width} ${PLOT.height}`} className="month-bars-chart" role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        <g className="month-bars-axis" aria-hidden="true">
          {[0, top / 2, top].map((tick) => (
            <g key={tick}>
              <line x1={PLOT.left} x2={PLOT.width - PLOT.right} y1={yOf(tick, top, PLOT)} y2={yOf(tick, top, PLOT)} className="month-bars-grid" />
              <text x={PLOT.left - 5} y={yOf(tick, top, PLOT) + 4} textAnchor="end">
                {axis(tick)}
              </text>
            </g>
          ))}
          {months.map((month, i) => (
            <text key={month} x={PLOT.left + slot * (i + 0.5)} y={PLOT.height - 5} textAnchor="middle">
              {monthLabel(month, 'short')}
            </text>
          ))}
        </g>
        {bars.map((row, s) =>
          row.map((bar, i) =>
            bar.height > 0 ? (
              <rect key={`${s}-${months[i]}`} x={bar.x} y={bar.y} width={bar.width} height={bar.height} className={`month-bar-${series[s].tone}`}>
                <title>{`${monthLabel(months[i])}: ${series[s].name} ${format(series[s].values[i])}`}</title>
              </rect>
            ) : null,
          ),
        )}
      </svg>
      <details className="month-bars-details">
        <summary>Show the figures as a table</summary>
        <div className="month-bars-table-wrap">
          <table className="month-bars-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                {series.map((s) => (
                  <th key={s.name} scope="col">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {months.map((month, i) => (
                <tr key={month}>
                  <th scope="row">{monthLabel(month)}</th>
                  {series.map((s) => (
                    <td key={s.name}>{format(s.values[i] ?? 0)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
