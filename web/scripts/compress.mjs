// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build (scripts,
// styles, SVG, JSON, the page), once, at build time: Hark then serves the copy a browser accepts
// instead of compressing on every request. `node scripts/compress.mjs [folder]` (default: dist).
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
const compressible = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

let written = 0;
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (compressible.test(entry.name) && !entry.name.endsWith('.map')) {
      const raw = fs.readFileSync(file);
      if (raw.length < MIN_BYTES) continue;
      fs.writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
      fs.writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      written += 1;
    }
  }
};
walk(root);
console.log(`compressed ${written} files (brotli and gzip) in ${path.relative(process.cwd(), root) || '.'}`);
