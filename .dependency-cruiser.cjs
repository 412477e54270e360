/**
 * The import rules of the house (docs/architecture.md), checked in CI by scripts/check-deps.mjs
 * together with its own rule that no two top-level folders import each other in a circle.
 */
module.exports = {
  forbidden: [
    {
      name: 'fleet-is-adapters',
      comment:
        'fleet/ holds engines, daemon clients, profiles and the simulator: it takes a daemon spec and answers state and observations. It imports only kernel, runtime and secrets (an allow list: a new folder is forbidden until named); nodes/ drives it.',
      severity: 'error',
      from: { path: '^src/server/fleet/' },
      to: { path: '^src/server/', pathNot: '^src/server/(fleet|kernel|runtime|secrets)/' },
    },
    {
      name: 'no-foreign-tables',
      comment:
        "A domain reads another domain's data through that domain's exported functions, never its queries or repository files.",
      severity: 'error',
      from: { path: '^src/server/([^/]+)/' },
      to: { path: '^src/server/[a-z-]+/[a-z/-]*(queries|repository)[a-z-]*[.]ts$', pathNot: '^src/server/$1/' },
    },
    {
      name: 'composition-root-on-top',
      comment:
        'The files directly in src/server (app, router, server, serve, main) put the process together; no folder imports them.',
      severity: 'error',
      from: { path: '^src/server/[^/]+/' },
      to: { path: '^src/server/[^/]+\\.ts$' },
    },
    {
      name: 'client-not-server',
      comment: 'The browser bundle never imports server code; only the type of the router (erased at build).',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/server/', pathNot: '^src/server/router\\.ts$' },
    },
    {
      name: 'client-router-type-only',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/server/router\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-is-shared',
      comment: 'src/shared is imported by the server and the client, and imports neither.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(server|client)/' },
    },
    {
      name: 'no-file-cycle',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
