// `statelens import langgraph URL|FILE`: a LangGraph / LangMem PostgresStore `store` table.
import { emptyPlan } from '../../engine/import/foreign/plan';
import { isPostgresUrl, langGraphFilePlan, planLangGraph, readStoreTable } from '../../engine/import/foreign/langgraph';
import { stringOpt } from '../command';
import { foreignImportCommand, readInput } from './import-foreign';

export const importLanggraphCommand = foreignImportCommand({
  name: 'langgraph',
  summary: 'Import a LangGraph / LangMem long-term store (PostgresStore table, or rows exported from it)',
  synopsis: 'statelens import langgraph URL|FILE --db TARGET [--store-schema S] [--json]',
  usage: `  URL             postgres://… of the database whose S.store table the PostgresStore keeps (read only)
  FILE            rows exported from that table as JSON lines, e.g.
                  psql -Atc "SELECT row_to_json(s) FROM store s" > store.jsonl   (or one JSON array)
  --store-schema  the schema of the store table (default public)

Each namespace becomes the user partition user:ORG/PART1/PART2/… and each item a fact keyed by
its key, its JSON value kept, its updated time as the fact's time and its created time in the
provenance. Items past their expiry are left out, as LangGraph no longer returns them.`,
  options: { 'store-schema': { type: 'string' } },
  async plan([input], args, org) {
    const source = input as string;
    if (isPostgresUrl(source)) {
      const shown = source.replace(/\/\/[^@/]*@/, '//…@');
      return planLangGraph(emptyPlan('langgraph', shown), await readStoreTable(source, stringOpt(args, 'store-schema') || 'public'), org);
    }
    return langGraphFilePlan(readInput(source), source, org);
  },
});
