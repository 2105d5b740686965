// The sections `statelens bench` runs, in order. Add a section here: a module in test/bench/
// exporting a BenchSection ({ name, run(opts) -> rows }) — see section.ts.
import { assemblySection } from './assembly.bench';
import { ingestSection } from './ingest.bench';
import { runnersSection, statebenchSection } from './figures.bench';
import { crashSection, loadSection, scaleSection } from './scale.bench';
import type { BenchSection } from './section';

export const BENCH_SECTIONS: readonly BenchSection[] = [
  ingestSection,
  assemblySection,
  scaleSection,
  loadSection,
  crashSection,
  statebenchSection,
  runnersSection,
];
