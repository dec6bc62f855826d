// Which files an upload takes: the browser's own `accept` rule, applied to dropped files too.

/** Whether a file matches an `accept` list of MIME types (`audio/*`, `video/mp4`) and extensions (`.flac`). */
export function accepts(file: { name: string; type: string }, accept: string[]): boolean {
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p.startsWith('.')) return name.endsWith(p);
    if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
    return type === p;
  });
}
