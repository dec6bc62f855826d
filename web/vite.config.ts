// Builds the single-page app into web/dist, which Hark serves at `/`. In development, `vite`
// proxies the API to a running Hark.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    // Read by scripts/bundle-size.mjs to follow what the first page loads.
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Mantine and what it builds on, as one chunk every workspace page shares.
            { name: 'mantine', test: /[\\/]node_modules[\\/](@mantine[\\/](core|hooks|store)|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|react-number-format|react-textarea-autosize|tslib|clsx|get-nonce|detect-node-es)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': process.env.HARK_URL ?? 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
