// Bundles the server and the operator CLI into dist/server with esbuild.
// better-sqlite3 stays external (native addon); CommonJS dependencies need `require`.
import { build } from 'esbuild';

await build({
  entryPoints: {
    main: 'src/server/main.ts',
    cli: 'src/server/command-line.ts',
    simulator: 'src/server/fleet/simulator/main.ts',
  },
  outdir: 'dist/server',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  bundle: true,
  sourcemap: true,
  external: ['better-sqlite3', '@node-rs/argon2', 'dockerode', 'ssh2', 'cpu-features'],
  banner: {
    js: "import { createRequire as __nkCreateRequire } from 'node:module'; const require = __nkCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log('server built: dist/server/main.js, cli.js, simulator.js');
