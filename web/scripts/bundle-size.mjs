// Prints the gzip size of the JavaScript a first visit loads, from Vite's manifest: the entry with
// everything it imports, plus the chunks of the page a signed-in user lands on (the workspace frame
// and the recordings list). Fails above the budget.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chunkFiles, dist } from './manifest.mjs';

const BUDGET_KB = 300;
const firstPage = ['index.html', 'src/components/WorkspaceLayout.tsx', 'src/pages/Recordings.tsx'];

const files = new Set();
for (const key of firstPage) {
  try {
    chunkFiles(key, files);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
let total = 0;
for (const file of [...files].filter((f) => f.endsWith('.js')).sort()) {
  const size = gzipSync(fs.readFileSync(path.join(dist, file))).length;
  total += size;
  console.log(`  ${file}: ${(size / 1024).toFixed(1)} KB gzip`);
}
console.log(`first page JavaScript (sign-in to the recordings list): ${(total / 1024).toFixed(1)} KB gzip, budget ${BUDGET_KB} KB`);
if (total > BUDGET_KB * 1024) {
  console.error(`the first page's JavaScript is over ${BUDGET_KB} KB gzip`);
  process.exit(1);
}
