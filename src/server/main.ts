import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runServer } from './serve';

// The bundle (dist/server/main.js) serves the client built beside it, wherever it is started from.
const besideBundle = fileURLToPath(new URL('../client/', import.meta.url));
runServer(fs.existsSync(`${besideBundle}index.html`) ? { clientDir: besideBundle } : {}).catch((err) => {
  process.stderr.write(`Nodekeep failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
