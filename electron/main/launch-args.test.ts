import { describe, expect, it } from 'vitest';
import { databaseFromArgv, OPEN_DATABASE_FLAG } from './launch-args';

describe('the desktop command line', () => {
  it('names the database to open, wherever Electron put its own switches', () => {
    expect(databaseFromArgv(['/usr/bin/electron', '/app', '--no-sandbox', `${OPEN_DATABASE_FLAG}=/data/a b.db`])).toBe('/data/a b.db');
    expect(databaseFromArgv(['/usr/bin/electron', '/app'])).toBeUndefined();
    expect(databaseFromArgv([`${OPEN_DATABASE_FLAG}=`])).toBeUndefined();
  });
});
