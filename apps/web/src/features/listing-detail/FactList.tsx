import type { ReactNode } from 'react';

/** Labelled facts as a description list: each row a label and its value (the tabs' facts, the verified figures' comparison). */
export function FactList({ rows, className }: { rows: Array<[string, ReactNode]>; className: string }) {
  return (
    <dl className={className}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
