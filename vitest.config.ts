import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file runs in its own fork with its own database and servers; two cores here.
    pool: 'forks',
    maxWorkers: 2,
    server: { deps: { inline: ['kysely'] } },
  },
});
