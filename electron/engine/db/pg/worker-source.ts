// The bridge worker's code, run with `new Worker(source, { eval: true })`: plain JavaScript in a
// string, so it needs no TypeScript loader and survives bundling (no file to locate at run time).
// It owns one async client (pg for a server, PGlite in process), runs one request at a time and
// answers on the port, then raises the reply flag the blocked caller waits on.

/** Index of the reply flag (1 = a reply is on the port) in the shared Int32Array. */
export const REPLY = 0;
/** Index of the flag the worker raises as it exits, for whatever reason. */
export const DEAD = 1;
/** Index of the count of other sessions' notifications received (read without a round trip). */
export const NOTIFIED = 2;
/** Words of the shared Int32Array. */
export const SIGNAL_WORDS = 3;

export const WORKER_SOURCE = String.raw`
'use strict';
const { workerData } = require('node:worker_threads');
const { port, signalBuffer, modules, target, searchPath, connectTimeoutMs } = workerData;
const signal = new Int32Array(signalBuffer);
let client = null;
let lost = null;
// Partition ids other sessions announced on the listened channel, until the caller takes them;
// notified.all when one announcement named too many to list.
const notified = { ids: new Set(), all: false };

function onNotification(payload) {
  if (payload === '*' || payload === '') notified.all = true;
  else for (const part of String(payload).split(',')) if (/^[0-9]+$/.test(part)) notified.ids.add(Number(part));
  Atomics.add(signal, ${NOTIFIED}, 1);
}

process.on('exit', () => {
  Atomics.store(signal, ${DEAD}, 1);
  Atomics.notify(signal, ${REPLY});
});

function reply(message) {
  port.postMessage(message);
  Atomics.store(signal, ${REPLY}, 1);
  Atomics.notify(signal, ${REPLY});
}

function errorOf(e) {
  const code = e && typeof e.code === 'string' ? e.code : undefined;
  const sqlstate = code && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  return {
    message: String((e && e.message) || e),
    sqlstate,
    errno: sqlstate ? undefined : code,
    detail: e && typeof e.detail === 'string' ? e.detail : undefined,
    constraint: e && typeof e.constraint === 'string' ? e.constraint : undefined,
    lost: lost !== null,
  };
}

/** int8 and numeric: PostgreSQL's types for counts, sums and row ids, read as JS numbers. */
const NUMBER_OIDS = [20, 1700];

async function openServer() {
  const loaded = await import(modules.pg);
  const pg = loaded.default || loaded;
  // bigint columns (ids, rids) and numeric results (sum() over integers) come back as numbers,
  // as better-sqlite3 gives them.
  const types = {
    getTypeParser: (oid, format) => (NUMBER_OIDS.includes(oid) ? (v) => (v === null ? null : Number(v)) : pg.types.getTypeParser(oid, format)),
  };
  const c = new pg.Client({
    connectionString: target.url,
    types,
    keepAlive: true,
    connectionTimeoutMillis: connectTimeoutMs,
    application_name: 'statelens',
  });
  c.on('error', (e) => {
    lost = e;
  });
  c.on('end', () => {
    lost = lost || new Error('the server closed the connection');
  });
  await c.connect();
  return {
    async query(sql, params) {
      const r = await c.query({ text: sql, values: params });
      return { rows: r.rows, rowCount: r.rowCount === null ? r.rows.length : r.rowCount };
    },
    async exec(sql) {
      await c.query(sql);
    },
    async commit() {
      // COMMIT of an aborted transaction succeeds with the tag ROLLBACK.
      const r = await c.query('COMMIT');
      return r.command;
    },
    async listen(channel) {
      // A session hears its own notifications too; the store knows its own writes already.
      c.on('notification', (msg) => {
        if (msg.channel === channel && msg.processId !== c.processID) onNotification(msg.payload);
      });
      await c.query('LISTEN "' + channel.replace(/"/g, '""') + '"');
      return true;
    },
    async close() {
      await c.end();
    },
  };
}

async function openPglite() {
  const loaded = await import(modules.pglite);
  const PGlite = loaded.PGlite || (loaded.default && loaded.default.PGlite);
  // The extensions the schema uses (btree_gin, unaccent) must be loaded when PGlite starts.
  const extensions = {};
  for (const [name, url] of Object.entries(modules.pgliteExtensions || {})) {
    const ext = await import(url);
    extensions[name] = ext[name] || (ext.default && ext.default[name]);
  }
  const parsers = Object.fromEntries(NUMBER_OIDS.map((oid) => [oid, (v) => Number(v)]));
  const db = await PGlite.create({ ...(target.dataDir ? { dataDir: target.dataDir } : {}), extensions, parsers });
  return {
    async query(sql, params) {
      const r = await db.query(sql, params, { rowMode: 'object' });
      return { rows: r.rows, rowCount: Math.max(r.affectedRows || 0, r.rows.length) };
    },
    async exec(sql) {
      await db.exec(sql);
    },
    // PGlite reports no command tag: the caller's own record of failures decides.
    async commit() {
      await db.exec('COMMIT');
      return undefined;
    },
    // One in-process connection per data folder: every write is the store's own, none to hear.
    async listen() {
      return false;
    },
    async close() {
      await db.close();
    },
  };
}

port.on('message', async (req) => {
  try {
    if (req.op === 'open') {
      client = target.kind === 'server' ? await openServer() : await openPglite();
      if (searchPath) await client.exec('SET search_path TO ' + searchPath);
      reply({ ok: true, rows: [], rowCount: 0 });
    } else if (req.op === 'query') {
      if (lost) throw lost;
      reply({ ok: true, ...(await client.query(req.sql, req.params)) });
    } else if (req.op === 'exec') {
      if (lost) throw lost;
      await client.exec(req.sql);
      reply({ ok: true, rows: [], rowCount: 0 });
    } else if (req.op === 'commit') {
      if (lost) throw lost;
      const command = await client.commit();
      reply({ ok: true, rows: [{ command }], rowCount: 1 });
    } else if (req.op === 'listen') {
      if (lost) throw lost;
      const listening = await client.listen(req.channel);
      reply({ ok: true, rows: [{ listening }], rowCount: 1 });
    } else if (req.op === 'notifications') {
      const rows = [{ ids: [...notified.ids], all: notified.all }];
      notified.ids.clear();
      notified.all = false;
      reply({ ok: true, rows, rowCount: 1 });
    } else if (req.op === 'close') {
      const c = client;
      client = null;
      if (c) await c.close().catch(() => undefined);
      reply({ ok: true, rows: [], rowCount: 0 });
      port.close();
    } else if (req.op === 'crash') {
      // Tests only: the worker dies as an uncaught error would kill it.
      setImmediate(() => {
        throw new Error('simulated bridge worker crash');
      });
    } else {
      throw new Error('unknown bridge request ' + String(req.op));
    }
  } catch (e) {
    reply({ ok: false, error: errorOf(e) });
  }
});
`;
