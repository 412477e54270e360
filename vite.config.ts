import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client lives in src/client; the server serves the build from dist/client.
// In `npm run dev:client` the API, tRPC and the live-event websocket go to the server.
const api = process.env.NODEKEEP_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: 'src/client',
  plugins: [react()],
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
