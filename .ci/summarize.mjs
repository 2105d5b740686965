// Sums vitest JSON reports into the one plain line CI reads: "N passed, N failed".
import fs from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
// Named here, just above the summary line, so the tail of a CI log says which tests failed.
const failures = [];
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.log(`ci: ${file} is missing (that run crashed before reporting)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const step of report.failedSteps ?? []) failures.push(`${file}: ${step}`);
  for (const suite of report.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
      failed += 1;
      failures.push(`${file}: ${suite.name} (the file failed before its tests ran: ${(suite.message ?? '').split('\n')[0]})`);
    }
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`${file}: ${suite.name} > ${test.fullName ?? test.title}`);
    }
  }
}
for (const failure of failures) console.log(`ci: failed: ${failure}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
