import { z } from 'zod';

// zod builds fast parsers with `new Function` when a schema is created, unless told not
// to. The Content-Security-Policy forbids eval (docs/decisions.md), so even zod's probe
// for it is reported as a violation. Imported first by main.tsx, before any schema.
z.config({ jitless: true });
