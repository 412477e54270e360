import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order, except that inside a group of tiers run together (vitest.config.ts:
 * http and peers) the peers tier's files start first. Its files are few and long, and
 * mostly wait on daemons and Podman; started first they overlap the http tier's many
 * short files instead of being the group's last (Vitest's own order puts projects
 * alphabetically, and peers last). On a quiet machine the two orders took the same time
 * (334 s and 341 s, one run each); the group's tail is the long files' risk on a loaded one.
 */
export default class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    const rank = (f: TestSpecification) => (f.project.name === 'peers' ? 0 : 1);
    // Array sort is stable: Vitest's order stays within each rank.
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}
