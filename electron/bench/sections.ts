// The sections `statelens bench` runs after its cold-start one, in order. Add a section here: a
// module in electron/bench/ exporting a BenchSection ({ name, run(opts) -> rows }) — see section.ts.
import { assemblySection } from './assembly';
import { runnersSection, statebenchSection } from './figures';
import { ingestSection } from './ingest';
import { postgresSection } from './postgres';
import { crashSection, loadSection, scaleSection } from './scale';
import type { BenchSection } from './section';

export const BENCH_SECTIONS: readonly BenchSection[] = [
  ingestSection,
  assemblySection,
  scaleSection,
  loadSection,
  postgresSection,
  crashSection,
  statebenchSection,
  runnersSection,
];
