// Vite's build manifest (web/dist/.vite/manifest.json), read by the build's own scripts: which
// files a source module's chunk loads.
import fs from 'node:fs';
import path from 'node:path';

export const dist = path.join(import.meta.dirname, '..', 'dist');
export const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));

/** The files a manifest entry loads, itself and what it imports, in load order (added to `into`). */
export function chunkFiles(key, into = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const next of chunk.imports ?? []) chunkFiles(next, into);
  return into;
}
