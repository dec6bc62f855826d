// A drop zone for files: drag files onto it, or click it (or press Enter or Space on it) to choose
// them. Files outside `accept` are left out, as the file chooser itself would.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { accepts } from '../lib/accepts.ts';
import './FileDrop.css';

/** Its accessible name is its visible text (the children). */
export function FileDrop({ accept, onDrop, onSkip, children }: { accept: string[]; onDrop: (files: File[]) => void; /** The files of a drop or a choice that are not audio (an empty list when all were). */ onSkip?: (files: File[]) => void; children: ReactNode }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  // A file dropped beside the zone would open in the tab and lose the batch: the page takes no drop
  // while the zone is shown.
  useEffect(() => {
    const refuse = (event: DragEvent) => event.preventDefault();
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);
  const take = (files: FileList | null) => {
    const all = [...(files ?? [])];
    const chosen = all.filter((file) => accepts(file, accept));
    onSkip?.(all.filter((file) => !chosen.includes(file)));
    if (chosen.length > 0) onDrop(chosen);
  };
  return (
    <div
      role="button"
      tabIndex={0}
      className="hark-file-drop"
      data-over={over || undefined}
      onClick={() => input.current?.click()}
      onKeyDown={(event) => {
        if (event.key !== 'Enter' && event.key !== ' ') return;
        event.preventDefault();
        input.current?.click();
      }}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        take(event.dataTransfer.files);
      }}
    >
      {children}
      <input
        ref={input}
        type="file"
        accept={accept.join(',')}
        multiple
        hidden
        onChange={(event) => {
          take(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
    </div>
  );
}
