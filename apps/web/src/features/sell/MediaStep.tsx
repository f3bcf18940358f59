import { MAX_SCREENSHOTS } from '@market/domain';
import { PickProblems, RemoveScreenshotButton, ScreenshotInput, useScreenshotPicker } from '../../components/form/ScreenshotPicker';

interface MediaStepProps {
  files: File[];
  onChange: (files: File[]) => void;
}

const kb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** Step 4: up to 5 screenshots (JPEG, PNG, WebP, GIF, 5 MB each) with previews and remove buttons. */
export function MediaStep({ files, onChange }: MediaStepProps) {
  const { problems, previews, pick, removeAt } = useScreenshotPicker(files, onChange);
  const full = files.length >= MAX_SCREENSHOTS;

  return (
    <div>
      <h2>Media Upload</h2>
      <p className="muted">
        Add up to {MAX_SCREENSHOTS} screenshots of the site, its analytics or revenue dashboards. JPEG, PNG, WebP or GIF, 5 MB each. Optional, but
        listings with screenshots sell faster.
      </p>
      <label className={`upload-drop${full ? ' disabled' : ''}`}>
        <span className="upload-drop-title">{full ? `${MAX_SCREENSHOTS} of ${MAX_SCREENSHOTS} screenshots chosen` : 'Add screenshots'}</span>
        <span className="muted">
          {files.length} of {MAX_SCREENSHOTS} chosen
        </span>
        <ScreenshotInput onPick={pick} disabled={full} aria-label="Add screenshots" />
      </label>
      <PickProblems problems={problems} />
      {files.length > 0 && (
        <ul className="screenshot-grid">
          {files.map((file, index) => (
            <li key={`${file.name}-${file.lastModified}-${index}`} className="screenshot-item">
              {previews[index] && <img src={previews[index]} alt={`Screenshot ${index + 1}: ${file.name}`} />}
              <div className="screenshot-meta">
                <span className="screenshot-name" title={file.name}>
                  {file.name}
                </span>
                <span className="muted">{kb(file.size)}</span>
              </div>
              <RemoveScreenshotButton label={`Remove screenshot ${index + 1}`} onClick={() => removeAt(index)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
