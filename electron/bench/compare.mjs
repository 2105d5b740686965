// Compares the `statelens bench` figures of two checkouts (e.g. a commit's worktree and this one):
// runs the named sections on each build in turn (base, head, base, head, …) so that load from other
// processes falls on both alike, then prints each figure's medians and its cost ratio (head / base
// for times, base / head for rates: above 1 means the head build is slower).
// Usage: node electron/bench/compare.mjs BASE_DIR HEAD_DIR [--runs N] [bench options: --quick --only …]
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const [base, head, ...rest] = process.argv.slice(2);
if (!base || !head || base.startsWith('--') || head.startsWith('--')) {
  console.error('Usage: node electron/bench/compare.mjs BASE_DIR HEAD_DIR [--runs N] [--quick] [--only SECTION,...]');
  process.exit(2);
}
const runsAt = rest.indexOf('--runs');
const runs = runsAt >= 0 ? Number(rest[runsAt + 1]) : 3;
const benchArgs = runsAt >= 0 ? rest.filter((_, i) => i !== runsAt && i !== runsAt + 1) : rest;
if (!Number.isInteger(runs) || runs < 1) {
  console.error('compare: --runs takes a whole number ≥ 1');
  process.exit(2);
}

/** One run of the bench on the checkout at `dir`: its rows, value by metric. */
function bench(dir) {
  const out = execFileSync(process.execPath, [path.join(dir, 'electron', 'cli', 'statelens.mjs'), 'bench', '--json', ...benchArgs], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** values[build][section / metric] = every run's value; units by the same key. */
const values = { base: new Map(), head: new Map() };
const units = new Map();

/** The figures so far, one Markdown row each. */
function table(rounds) {
  const lines = [
    `## ${rounds} run${rounds === 1 ? '' : 's'} of each build`,
    '',
    '| figure | unit | base median | head median | cost ratio | base runs | head runs |',
    '|---|---|---:|---:|---:|---|---|',
  ];
  for (const [key, unit] of units) {
    // A figure only one build measures shows '–' for the other.
    const b = values.base.get(key) ?? [];
    const h = values.head.get(key) ?? [];
    const [mb, mh] = [b.length ? median(b) : NaN, h.length ? median(h) : NaN];
    const ratio = unit.endsWith('/s') ? mb / mh : mh / mb;
    const shown = (x) => (Number.isFinite(x) ? String(x) : '–');
    lines.push(`| ${key} | ${unit} | ${shown(mb)} | ${shown(mh)} | ${Number.isFinite(ratio) ? ratio.toFixed(3) : '–'} | ${b.join(', ')} | ${h.join(', ')} |`);
  }
  return lines.join('\n');
}

// The table is printed after every round: on a busy machine a long comparison can be stopped
// once the ratios settle, keeping what was measured.
for (let i = 0; i < runs; i++) {
  for (const [build, dir] of [
    ['base', base],
    ['head', head],
  ]) {
    console.error(`compare: run ${i + 1}/${runs} of ${build} (${dir})`);
    for (const row of bench(dir)) {
      if (typeof row.value !== 'number' || !row.unit) continue;
      const key = `${row.section} / ${row.metric}`;
      units.set(key, row.unit);
      values[build].set(key, [...(values[build].get(key) ?? []), row.value]);
    }
  }
  console.log(`${table(i + 1)}\n`);
}
