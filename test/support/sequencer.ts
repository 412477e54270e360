import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Within each group of tiers (vitest.config.ts), the longest files first, by the seconds
 * each took in a recorded clean-clone run (test/durations.json, written by
 * scripts/test-durations.mjs). A clean clone has no Vitest cache, so Vitest's own order is
 * by project name and file size: the long attack and daemon files started late and one
 * of them ran alone at the end of its group (22 s on one worker of three, 10:07 run).
 * A file the record does not know counts as 2 s.
 */
const durations: Record<string, number> = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '..', 'durations.json'), 'utf8'),
);

export default class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    const seconds = (f: TestSpecification) => durations[path.relative(f.project.config.root, f.moduleId)] ?? 2;
    // Array sort is stable: Vitest's order stays among files of equal record.
    return sorted.sort((a, b) => group(a) - group(b) || seconds(b) - seconds(a));
  }
}
