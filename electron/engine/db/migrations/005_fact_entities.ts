// Migration 5: facts carry the entity they are about, so a write under another key can still
// supersede the fact of the same entity. `entity` is what the writer named (if anything);
// `entity_key` is what lookups compare (the named entity, else the key's entity), indexed over
// valid facts only, the ones a new write can supersede. Existing facts get theirs from their keys.
import { entityKey } from '../../facts/entity';
import type { Migration } from './types';

export const migration005: Migration = {
  version: 5,
  name: 'fact entities',
  up(db) {
    db.exec(`
      ALTER TABLE facts ADD COLUMN entity TEXT;
      ALTER TABLE facts ADD COLUMN entity_key TEXT;
      CREATE INDEX facts_partition_entity ON facts (partition_id, entity_key) WHERE is_valid = 1;
    `);
    db.function('statelens_entity_key', { deterministic: true }, (key: unknown) => entityKey(String(key), null));
    db.exec('UPDATE facts SET entity_key = statelens_entity_key(key)');
  },
};
