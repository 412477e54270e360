import { runSimulatorProcess } from './process';

// The bundle's simulator.js (dist/server), started by the local engine.
await runSimulatorProcess(process.argv.slice(2));
