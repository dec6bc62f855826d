// Rewrites how the built page starts (dist/index.html), from Vite's manifest:
// - it names, for the page's early script, the code each first page needs beyond the entry (the
//   workspace frame's and the opened page's chunks), which that script preloads as the page opens
//   instead of the app asking for it once its own code has run;
// - the app's code is fetched at low priority, so that the styles, which the frame's header
//   (#shell) waits for, come first.
import fs from 'node:fs';
import path from 'node:path';

const dist = path.join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const CHUNKS = 'var chunks = {};';
const pages = { layout: 'src/components/WorkspaceLayout.tsx', recordings: 'src/pages/Recordings.tsx', recording: 'src/pages/Recording.tsx' };

/** The JavaScript files a manifest entry loads, itself and what it imports, in load order. */
function files(key, into = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const next of chunk.imports ?? []) files(next, into);
  return into;
}

function fail(message) {
  console.error(`dist/index.html: ${message}`);
  process.exit(1);
}

const entry = files('index.html');
const chunks = Object.fromEntries(Object.entries(pages).map(([name, key]) => [name, [...files(key)].filter((file) => !entry.has(file)).map((file) => `/${file}`)]));
const page = path.join(dist, 'index.html');
let html = fs.readFileSync(page, 'utf8');
if (!html.includes(CHUNKS)) fail(`no "${CHUNKS}" for the page chunks`);
html = html.replace(CHUNKS, `var chunks = ${JSON.stringify(chunks)};`);

// The code is fetched beside the styles but after them: the frame is drawn from the styles alone.
const preloads = html.match(/<link rel="modulepreload" /g)?.length ?? 0;
if (preloads === 0) fail('no module preloads where Vite writes them');
html = html.replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
fs.writeFileSync(page, html);
console.log(`page start: ${preloads} module preloads at low priority; page chunks: ${Object.entries(chunks).map(([name, list]) => `${name} ${list.length}`).join(', ')}`);
