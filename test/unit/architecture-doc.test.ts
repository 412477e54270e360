import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { queuedJobPayloads, recurringJobNames } from '../../src/shared/jobs';

// docs/architecture.md is the map a newcomer starts from: one line per top-level folder of
// src/server and src/client, one per job, and no line for a folder that is gone. Folders
// move (nodes/fleet, new guards); this says which line to add or remove.

const map = fs.readFileSync('docs/architecture.md', 'utf8').split('\n');
const folders = (root: string) =>
  fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

describe('docs/architecture.md', () => {
  for (const side of ['server', 'client'] as const) {
    it(`has a line for every folder of src/${side}`, () => {
      const missing = folders(`src/${side}`)
        .map((name) => `- \`src/${side}/${name}/\``)
        .filter((start) => !map.some((line) => line.startsWith(start)));
      expect(
        missing,
        `docs/architecture.md lacks these lines (add "<line> — what it owns. Imports: …" under "## src/${side} folders"):\n${missing.join('\n')}`,
      ).toEqual([]);
    });
  }

  it('names no folder that does not exist', () => {
    const stale = map.filter((line) => {
      const m = line.match(/^- `src\/(server|client)\/([^/`]+)\/`/);
      return m !== null && !fs.existsSync(`src/${m[1]}/${m[2]}`);
    });
    expect(
      stale,
      `docs/architecture.md names folders that do not exist; remove or rename:\n${stale.join('\n')}`,
    ).toEqual([]);
  });

  it('has a line for every job of src/shared/jobs.ts', () => {
    const missing = [...Object.keys(queuedJobPayloads), ...recurringJobNames]
      .map((name) => `- \`${name}\` —`)
      .filter((start) => !map.some((line) => line.startsWith(start)));
    expect(
      missing,
      `docs/architecture.md lacks these lines (add "<line> kind, schedule, key, what it does. <folder>/" under "## Jobs"):\n${missing.join('\n')}`,
    ).toEqual([]);
  });
});
