// Writes test/durations.json from a vitest JSON report (.ci/run writes .vitest-report.json):
// each test file's seconds, which test/support/sequencer.ts uses to start the longest
// files of a group first. Run after a full `.ci/run` when files were added or grew:
//   node scripts/test-durations.mjs [.vitest-report.json]
import fs from 'node:fs';
import path from 'node:path';

const report = JSON.parse(fs.readFileSync(process.argv[2] ?? '.vitest-report.json', 'utf8'));
const root = process.cwd();
const durations = Object.fromEntries(
  report.testResults
    .map((f) => [path.relative(root, f.name), Math.round((f.endTime - f.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
fs.writeFileSync('test/durations.json', JSON.stringify(durations, null, 2) + '\n');
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
