import { useState, type KeyboardEvent } from 'react';

interface ScreenshotGalleryProps {
  title: string;
  screenshots: string[];
  category: string;
}

/** Main screenshot and thumbnails; thumbnails are buttons, arrow keys move between them. */
export function ScreenshotGallery({ title, screenshots, category }: ScreenshotGalleryProps) {
  const [selected, setSelected] = useState(0);
  if (screenshots.length === 0) {
    return (
      <div className="gallery-main gallery-empty" aria-label="No screenshots">
        <span>{category}</span>
        <small>No screenshots yet</small>
      </div>
    );
  }
  const current = Math.min(selected, screenshots.length - 1);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (current + step + screenshots.length) % screenshots.length;
    setSelected(next);
    event.currentTarget.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };
  return (
    <div className="gallery">
      <div className="gallery-main">
        {/* The main screenshot is usually the largest paint: fetched at once, not lazily. */}
        <img src={screenshots[current]} alt={`${title}: screenshot ${current + 1} of ${screenshots.length}`} fetchPriority="high" />
      </div>
      {screenshots.length > 1 && (
        <div className="gallery-thumbs" role="group" aria-label="Screenshots" onKeyDown={onKeyDown}>
          {screenshots.map((src, index) => (
            <button
              key={src}
              type="button"
              className="gallery-thumb"
              aria-label={`Show screenshot ${index + 1} of ${screenshots.length}`}
              aria-pressed={index === current}
              tabIndex={index === current ? 0 : -1}
              onClick={() => setSelected(index)}
            >
              <img src={src} alt="" loading="lazy" />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
