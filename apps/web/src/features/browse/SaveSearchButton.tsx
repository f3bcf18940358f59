import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { SavedSearchFilters } from '@market/contracts';
import { useCreateSavedSearchMutation } from '../../api/saved-searches.api';
import { ModalDialog } from '../../components/dialog/ModalDialog';
import { TextField } from '../../components/form/TextField';
import { errorDetail } from '../../lib/error-detail';
import { savedSearchSummary } from '../../lib/saved-search-text';
import { useAppSelector } from '../../lib/store-hooks';
import { useInBrowser } from '../../lib/use-in-browser';
import { hasUnsavableFilters, savedFiltersOf, type BrowseFilters } from './browse-params';

/**
 * "Save this search" on browse (ADR 0074): a signed-in buyer names the current filters and chooses email alerts; a
 * visitor is asked to sign in. Who is signed in is known only in the browser (ADR 0072): until then its place is kept.
 */
export function SaveSearchButton({ filters }: { filters: BrowseFilters }) {
  const inBrowser = useInBrowser();
  const { user, status } = useAppSelector((state) => state.session);
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  if (!user) {
    // Until the session is known (and in the server's HTML) the visitor's link keeps its place unseen, so the toolbar
    // does not move when it is (ADR 0072).
    const pending = !inBrowser || status === 'loading' ? ' session-pending' : '';
    return (
      <Link className={`btn btn-small btn-ghost save-search${pending}`} to="/login">
        Sign in to save this search
      </Link>
    );
  }
  return (
    <>
      <button type="button" className="btn btn-small btn-secondary save-search" onClick={() => setOpen(true)}>
        Save this search
      </button>
      {saved && (
        <p className="alert alert-success save-search-done" role="status">
          Saved as “{saved}”. <Link to="/dashboard?tab=saved-searches">Manage saved searches</Link>
        </p>
      )}
      {open && <SaveSearchDialog filters={savedFiltersOf(filters)} dropsVerified={hasUnsavableFilters(filters)} onClose={() => setOpen(false)} onSaved={(name) => (setSaved(name), setOpen(false))} />}
    </>
  );
}

interface SaveSearchDialogProps {
  filters: SavedSearchFilters;
  /** Browse has a verified-figures filter on, which a saved search cannot keep yet (D24). */
  dropsVerified: boolean;
  onClose: () => void;
  onSaved: (name: string) => void;
}

function SaveSearchDialog({ filters, dropsVerified, onClose, onSaved }: SaveSearchDialogProps) {
  const summary = savedSearchSummary(filters);
  const [name, setName] = useState(summary.slice(0, 80));
  const [alerts, setAlerts] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [create, { isLoading }] = useCreateSavedSearchMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    try {
      const saved = await create({ name: name.trim(), filters, alerts }).unwrap();
      onSaved(saved.name);
    } catch (problem) {
      setFailure(errorDetail(problem, 'Could not save the search, please try again'));
    }
  };

  return (
    <ModalDialog titleId="save-search-title" title="Save this search" onClose={onClose}>
      <form onSubmit={submit} className="save-search-form">
        <p className="muted">{summary}</p>
        {dropsVerified && (
          <p className="alert alert-info" role="note">
            Saved searches do not keep the “Verified revenue” and “Verified traffic” filters yet: this one will match listings with or without
            verified figures.
          </p>
        )}
        <TextField label="Name" name="saved-search-name" value={name} onChange={setName} maxLength={80} required autoFocus />
        <label className="checkbox">
          <input type="checkbox" checked={alerts} onChange={(e) => setAlerts(e.target.checked)} />
          Email me new listings that match (at most one email a day)
        </label>
        {failure && (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit" className="btn btn-primary" disabled={isLoading || name.trim() === ''}>
            {isLoading ? 'Saving...' : 'Save search'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
