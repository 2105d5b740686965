// Prints the engine's line coverage measured by `npm run coverage` (vitest's json-summary in
// test-results/coverage/) and fails when it falls below the floor recorded in
// .config/coverage-floor.json, the first figure measured: coverage may rise, never fall.
// `--record` writes the measured figure as the floor when none is recorded yet.
// Usage: node electron/build/coverage-floor.mjs [--record]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const summaryFile = path.join(root, 'test-results', 'coverage', 'coverage-summary.json');
const floorFile = path.join(root, '.config', 'coverage-floor.json');

if (!fs.existsSync(summaryFile)) {
  console.error(`coverage: ${path.relative(root, summaryFile)} is missing: run \`npm run coverage\` (npm test with coverage) first`);
  process.exit(1);
}
const measured = JSON.parse(fs.readFileSync(summaryFile, 'utf8')).total.lines.pct;
const floor = JSON.parse(fs.readFileSync(floorFile, 'utf8'));
console.log(
  `coverage: engine (electron/engine) line coverage ${measured.toFixed(2)}% under npm test (floor: ${floor.engineLinesPct == null ? 'not recorded' : `${floor.engineLinesPct}%`})`,
);
if (floor.engineLinesPct == null) {
  if (process.argv.includes('--record')) {
    fs.writeFileSync(floorFile, `${JSON.stringify({ ...floor, engineLinesPct: measured }, null, 2)}\n`);
    console.log(`coverage: recorded ${measured}% as the floor in ${path.relative(root, floorFile)}`);
  } else console.log(`coverage: no floor recorded yet: \`node electron/build/coverage-floor.mjs --record\` records this figure`);
} else if (measured < floor.engineLinesPct) {
  console.error(`coverage: the engine's line coverage fell below its floor (${measured}% < ${floor.engineLinesPct}%): add tests for the new code`);
  process.exit(1);
}
