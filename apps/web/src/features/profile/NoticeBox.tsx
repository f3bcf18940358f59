/** A form's outcome, or nothing to say yet. */
export type Notice = { kind: 'success' | 'error'; text: string } | null;

/** A form's outcome: shown as a status on success, announced as an alert on failure. */
export function NoticeBox({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <div className={`alert ${notice.kind === 'success' ? 'alert-success' : 'alert-error'}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.text}
    </div>
  );
}
