#!/usr/bin/env bash
# What a newcomer does with the npm people have today: clone the committed HEAD into a temporary
# folder, install it with the registry's current npm (npm@latest through npx, which blocks every
# dependency install script the allowScripts policy does not allow), check that no install script
# is left unreviewed, and run the install smoke test (`npm run smoke`) there. So a blocked script
# fails CI, not a newcomer. Writes a report in vitest's JSON shape for .ci/summarize.mjs.
# usage: .ci/fresh-install.sh REPORT.json   (run from the project's top folder)
set -uo pipefail
report=$(realpath -m "$1")
top=$(pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
names=()
check() { # check NAME COMMAND...: runs one step in the clone, counts it
  local name=$1
  shift
  echo "fresh-install: $name"
  if (cd "$dir/project" && "$@"); then passed=$((passed + 1)); else failed=$((failed + 1)); names+=("$name"); echo "fresh-install: FAILED $name"; fi
}

git clone -q "$top" "$dir/project"
[ -d "$top/../shared" ] && ln -s "$top/../shared" "$dir/shared"
npm_version=$(npm view npm@latest version 2>/dev/null || echo latest)
echo "fresh-install: npm $npm_version (npm@latest) on Node $(node --version)"
check "npm@$npm_version ci in a fresh clone" npx -y "npm@$npm_version" ci --no-audit --no-fund
check "no install script left unreviewed (npm install-scripts ls)" bash -c \
  "out=\$(npx -y npm@$npm_version install-scripts ls 2>&1); echo \"\$out\"; ! grep -qi 'covered by allowScripts' <<<\"\$out\""
check "npm run smoke (demo into a new file, verify, one context)" npm run smoke

mkdir -p "$(dirname "$report")"
node -e '
const [file, passed, failed, ...names] = process.argv.slice(1);
const report = { numPassedTests: Number(passed), numFailedTests: Number(failed), numPendingTests: 0, numTodoTests: 0, testResults: [], failedSteps: names };
require("node:fs").writeFileSync(file, JSON.stringify(report, null, 1) + "\n");
' "$report" "$passed" "$failed" "${names[@]}"
echo "fresh-install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
