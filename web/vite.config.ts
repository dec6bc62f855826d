// Builds the single-page app into web/dist, which Hark serves at `/`. In development, `vite`
// proxies the API to a running Hark.
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * A signed-in visit lands on the workspace frame and the recordings list, whose code the router
 * would only ask for once the entry has run: preloading them from the page lets the browser fetch
 * them beside the entry (a sign-in visit fetches them early too, for where it goes next).
 */
function preloadFirstPage(entries: string[]): Plugin {
  return {
    name: 'hark-preload-first-page',
    apply: 'build',
    transformIndexHtml(_html, context) {
      const bundle = context.bundle ?? {};
      const files = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk' || files.has(fileName) || chunk.isEntry) return;
        files.add(fileName);
        chunk.imports.forEach(visit);
      };
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk' && entries.some((entry) => chunk.facadeModuleId?.endsWith(entry))) visit(chunk.fileName);
      return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href: `/${file}` }, injectTo: 'head' as const }));
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadFirstPage(['src/components/WorkspaceLayout.tsx', 'src/pages/Recordings.tsx'])],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    // Read by scripts/bundle-size.mjs to follow what the first page loads.
    manifest: true,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: { '/api': process.env.HARK_URL ?? 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
