// Rewrites how the built page starts (dist/index.html), from Vite's manifest:
// - it names, for the page's early script, the code each first page needs beyond the entry (the
//   workspace frame's and the opened page's chunks), which that script preloads as the page opens
//   instead of the app asking for it once its own code has run;
// - the app's code is fetched at low priority, so that the styles, which the frame's header
//   (#shell) waits for, come first.
import fs from 'node:fs';
import path from 'node:path';
import { chunkFiles, dist } from './manifest.mjs';

const CHUNKS = 'var chunks = {};';
const pages = { recordings: 'src/pages/Recordings.tsx', recording: 'src/pages/Recording.tsx' };

function fail(message) {
  console.error(`dist/index.html: ${message}`);
  process.exit(1);
}

// Each list leaves out what the entry loads; a page's leaves out the frame's, preloaded beside it.
const entry = chunkFiles('index.html');
const layout = [...chunkFiles('src/components/WorkspaceLayout.tsx')].filter((file) => !entry.has(file));
const chunks = {
  layout: layout.map((file) => `/${file}`),
  ...Object.fromEntries(Object.entries(pages).map(([name, key]) => [name, [...chunkFiles(key)].filter((file) => !entry.has(file) && !layout.includes(file)).map((file) => `/${file}`)])),
};
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
