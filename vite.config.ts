import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes `<file>.br` and `<file>.gz` beside each built script, stylesheet and SVG, once
 * at build time: the server hands them to browsers that accept them (app.ts,
 * `precompressed`), so a first visit downloads about 92 KB of JavaScript (brotli) instead of
 * 326 KB, and no request pays for compressing.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'nodekeep-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      for (const name of files) {
        if (!/\.(js|css|svg|html)$/.test(name)) continue;
        const file = path.join(outDir, name);
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue; // a header costs about what it would save
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
        );
      }
    },
  };
}

// The client lives in src/client; the server serves the build from dist/client.
// In `npm run dev:client` the API, tRPC and the live-event websocket go to the server.
const api = process.env.NODEKEEP_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: 'src/client',
  plugins: [react(), precompress()],
  resolve: {
    // wouter imports the useSyncExternalStore shim for React 17; React 19 has the hook itself.
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: new URL('src/client/app/useSyncExternalStore.ts', import.meta.url).pathname,
      },
    ],
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // Every browser the app supports has <link rel=modulepreload>: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // @trpc/client's modules have no side effects but do not say so (@trpc/server does):
      // without this its index keeps the websocket link in the entry even though only
      // a signed-in tab's lazy chunk uses it (src/client/app/trpc.ts).
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/node_modules/@trpc/client/') },
    },
  },
  server: {
    proxy: {
      '/trpc': api,
      '/api': api,
      '/public_api': api,
      '/healthz': api,
      '/live': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
});
