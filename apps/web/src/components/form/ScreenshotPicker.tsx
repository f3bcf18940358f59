import { useState, type ChangeEvent } from 'react';
import { SCREENSHOT_TYPES, screenshotSelection } from '../../lib/listing-form';
import { useObjectUrls } from '../../lib/upload';

/**
 * New screenshots picked for a listing: checks each pick (type, size, at most 5 counting `alreadyKept`),
 * keeps the reasons for refused files and gives preview URLs of the accepted ones.
 */
export function useScreenshotPicker(files: File[], onChange: (files: File[]) => void, alreadyKept = 0) {
  const [problems, setProblems] = useState<string[]>([]);
  const previews = useObjectUrls(files);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    // Cleared so picking the same file again after removing it fires a change.
    event.target.value = '';
    const { accepted, problems: refused } = screenshotSelection(picked, alreadyKept + files.length);
    setProblems(refused);
    if (accepted.length > 0) onChange([...files, ...accepted]);
  };

  const removeAt = (index: number) => {
    setProblems([]);
    onChange(files.filter((_, i) => i !== index));
  };

  return { problems, previews, pick, removeAt };
}

interface ScreenshotInputProps {
  onPick: (event: ChangeEvent<HTMLInputElement>) => void;
  disabled: boolean;
  'aria-label'?: string;
}

/** The file input for screenshots (field `screenshots`, the accepted image types, several at once). */
export function ScreenshotInput({ onPick, disabled, ...aria }: ScreenshotInputProps) {
  return <input type="file" name="screenshots" accept={SCREENSHOT_TYPES.join(',')} multiple disabled={disabled} onChange={onPick} {...aria} />;
}

/** Why the last picked files were refused, one line each. */
export function PickProblems({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="alert alert-error" role="alert">
      {problems.map((problem) => (
        <p key={problem}>{problem}</p>
      ))}
    </div>
  );
}

/** The small red Remove button under a screenshot. */
export function RemoveScreenshotButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-danger btn-tiny" onClick={onClick} aria-label={label}>
      Remove
    </button>
  );
}
