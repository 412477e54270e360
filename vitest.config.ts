import { defineConfig } from 'vitest/config';
import TierSequencer from './test/support/sequencer';

// The test tiers, from fastest to slowest. `npm test` runs them all; `npm run test:fast`
// runs unit and procedure alone (no build, no sockets of their own). A file belongs to
// one tier; a new file under test/ lands in `http` unless its path names another tier.
const tiers = {
  /** Pure code: no database, no sockets, no child processes. */
  unit: ['test/unit/**/*.test.ts', 'src/**/*.test.ts', 'test/fleet/placement.test.ts', 'test/fleet/status-map.test.ts'],
  /** Procedures through `createCaller` and queries on a real SQLite file; no HTTP. */
  procedure: ['test/procedure/**/*.test.ts', 'test/auth.test.ts', 'test/catalog.test.ts', 'test/migrations.test.ts'],
  /** Chromium against the built client (`npm run build` first). */
  browser: ['test/e2e/**/*.test.ts'],
  /** Real coin daemons (litecoind, monerod) and a private Podman (Docker hosts; a Debian machine with systemd). */
  peers: [
    'test/peers/**/*.test.ts',
    'test/ops/doctor-peers.test.ts',
    'test/fleet/local-engine.test.ts',
    'test/fleet/fleet-real-daemons.test.ts',
    'test/fleet/docker-engine.test.ts',
  ],
};
/** Real HTTP, websockets, SMTP, CLI and server processes on loopback: everything else. */
const http = {
  include: ['test/**/*.test.ts'],
  exclude: [...tiers.unit, ...tiers.procedure, ...tiers.browser, ...tiers.peers],
};

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: a loaded CI machine (two cores, Chromium and
    // servers beside the test) takes longer to show a lazy chunk or a refetch. Only a failing
    // poll waits the full time.
    expect: { poll: { timeout: 10_000 } },
    // Each file runs in its own fork with its own database and servers; two cores here.
    pool: 'forks',
    maxWorkers: 2,
    server: { deps: { inline: ['kysely'] } },
    // The peers tier's files first within their group (test/support/sequencer.ts).
    sequence: { sequencer: TierSequencer },
    // Fails a test that opens a connection anywhere but loopback or a unix socket.
    setupFiles: ['test/support/network-guard.ts'],
    projects: [
      // Tier groups run one after another (cheapest first): unit and procedure; http and
      // peers together (both mostly wait, on sockets, child processes, daemons and Podman);
      // then the browser, so Chromium never competes with the real daemons.
      // The fast tiers may not open even a loopback socket (the guard refuses it).
      {
        extends: true,
        test: {
          name: 'unit',
          include: tiers.unit,
          env: { NODEKEEP_TEST_NO_SOCKETS: '1' },
          // Files share a worker's modules: importing the server's code once per worker
          // instead of once per file made these two tiers 3.5× faster (123 s → 34 s).
          // Each file still makes its own database; none keeps state in modules.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'procedure',
          include: tiers.procedure,
          env: { NODEKEEP_TEST_NO_SOCKETS: '1' },
          // Files share a worker's modules: importing the server's code once per worker
          // instead of once per file made these two tiers 3.5× faster (123 s → 34 s).
          // Each file still makes its own database; none keeps state in modules.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'http',
          ...http,
          // Files share a worker's modules too: each starts its own servers on its own data
          // folder and stops them, and no server module keeps state between servers (a
          // run of this tier: 365-437 s → 296 s, module importing 200 s → 18 s summed).
          isolate: false,
          // Three workers on two cores: this tier's files wait on sockets, child processes and
          // timers for much of their time (half the machine idle with two workers, vmstat
          // during a clean-clone run), so a third fills that time.
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: tiers.browser,
          testTimeout: 60_000,
          // Files share a worker's modules and its Chromium (test/e2e/browser.ts
          // `sharedChromium`): each file still starts its own servers and makes its own
          // browser contexts, so no cookie, storage or page crosses files.
          isolate: false,
          // NODEKEEP_TEST_BROWSER_TIMEOUT_MS: the 60 s above, which each file's browserSession
          // scales by the machine's measured speed (test/support/machine-speed.ts), as it does
          // each step's 15 s: a loaded machine is slow, not stuck.
          env: { NODEKEEP_TEST_SHARED_CHROMIUM: '1', NODEKEEP_TEST_BROWSER_TIMEOUT_MS: '60000' },
          // Three workers: with Chromium's headless shell two left the machine a third idle
          // (a browser step waits on the server, a route's delay, a live frame); 361 s → 282 s.
          maxWorkers: 3,
          sequence: { groupOrder: 2 },
        },
      },
      // Real daemons start slowly on a loaded machine; their waits have budgets of their own.
      // In the http tier's group, so three workers (a group has one count); its files start
      // first (test/support/sequencer.ts).
      {
        extends: true,
        test: {
          name: 'peers',
          include: tiers.peers,
          testTimeout: 240_000,
          hookTimeout: 120_000,
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
