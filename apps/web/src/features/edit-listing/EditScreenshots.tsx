import { MAX_SCREENSHOTS } from '@market/domain';
import { PickProblems, RemoveScreenshotButton, ScreenshotInput, useScreenshotPicker } from '../../components/form/ScreenshotPicker';

interface EditScreenshotsProps {
  kept: string[];
  onKeptChange: (paths: string[]) => void;
  added: File[];
  onAddedChange: (files: File[]) => void;
}

/** The listing's screenshots to keep plus new ones with previews; at most 5 together (SPEC §5). */
export function EditScreenshots({ kept, onKeptChange, added, onAddedChange }: EditScreenshotsProps) {
  const { problems, previews, pick, removeAt } = useScreenshotPicker(added, onAddedChange, kept.length);
  const total = kept.length + added.length;

  return (
    <fieldset className="form-fieldset">
      <legend>
        Screenshots ({total} of {MAX_SCREENSHOTS})
      </legend>
      {total === 0 && <p className="muted">No screenshots yet.</p>}
      <ul className="edit-shots">
        {kept.map((path, index) => (
          <li key={path} className="edit-shot">
            <img src={path} alt={`Current screenshot ${index + 1}`} />
            <RemoveScreenshotButton label={`Remove current screenshot ${index + 1}`} onClick={() => onKeptChange(kept.filter((p) => p !== path))} />
          </li>
        ))}
        {added.map((file, index) => (
          <li key={`${file.name}-${file.lastModified}-${index}`} className="edit-shot">
            {previews[index] && <img src={previews[index]} alt={`New screenshot ${index + 1}: ${file.name}`} />}
            <span className="badge badge-blue">New</span>
            <RemoveScreenshotButton label={`Remove new screenshot ${index + 1}`} onClick={() => removeAt(index)} />
          </li>
        ))}
      </ul>
      <label className="field edit-upload">
        <span>Add screenshots</span>
        <ScreenshotInput onPick={pick} disabled={total >= MAX_SCREENSHOTS} />
        <small className="muted">JPEG, PNG, WebP or GIF, up to 5 MB each.</small>
      </label>
      <PickProblems problems={problems} />
    </fieldset>
  );
}
