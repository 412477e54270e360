// zod builds fast parsers with `new Function` when a schema is created, unless told not
// to. The Content-Security-Policy forbids eval (src/server/http/README.md), so even zod's probe
// for it is reported as a violation. Imported first by main.tsx, before any schema.
// zod reads its global configuration from this object when it first loads (zod
// v4/core/core.js), so setting it here keeps zod itself out of the initial bundle.
const g = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true };
export {};
