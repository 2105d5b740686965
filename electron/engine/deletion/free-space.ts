// Finds leftover copies of deleted text in the free space of a SQLite file's b-tree pages, and
// zeroes that free space in place. secure_delete zeroes a deleted cell and every freed page, but
// a page rebuilt while cells moved between siblings (b-tree balancing) keeps stale bytes in the
// gap between its cell pointers and its cell content, which SQLite never clears short of VACUUM.
import fs from 'node:fs';
import { withRawFile } from '../db/raw-file';

/** Shorter needles would match stale bytes by coincidence. */
export const MIN_NEEDLE_BYTES = 4;
/** A text up to this long is searched whole. A longer one by its first WINDOW_BYTES (what a
 * value-prefix index holds) and by windows of WINDOW_BYTES at every WINDOW_STEP offset, so any
 * surviving fragment of at least WINDOW_BYTES + WINDOW_STEP - 1 bytes is found, while a phrase
 * that many facts share (shorter than a window) is not taken for a copy of the deleted one. */
const WINDOW_BYTES = 64;
const WINDOW_STEP = 32;
const PAGES_PER_READ = 256;
/** Beyond this many matches the scan stops listing them (callers then rebuild the file). */
export const MAX_HITS = 10_000;

/** 'text': a deleted value, key or label, a leak wherever found. 'word': a word only the
 * deleted facts held, a leak only in the full-text index's pages (elsewhere, e.g. a number
 * inside an id, it is coincidence). */
export type NeedleKind = 'text' | 'word';

export interface Remnant {
  readonly page: number;
  readonly offset: number;
  readonly kind: NeedleKind;
}

export interface FreeSpaceScan {
  readonly pages: number;
  readonly btreePages: number;
  /** Every match, up to MAX_HITS. */
  readonly hits: Remnant[];
  /** More matches than MAX_HITS were found. */
  readonly truncated: boolean;
}

interface Needle {
  readonly bytes: Buffer;
  readonly kind: NeedleKind;
}

/** Bits of the head filters: a scanned position whose first bytes hash to a clear bit is
 * skipped at once (free space is mostly stale text, full of common word starts). */
const FILTER_BITS = 20;
/** Needles this long are found by a hash of their first LONG_PREFIX bytes, so that a position
 * sharing only a common word start with many needles costs one lookup, not many compares. */
const LONG_PREFIX = 16;
const bitOf = (hash: number): number => Math.imul(hash, 0x9e3779b1) >>> (32 - FILTER_BITS);
const hasBit = (filter: Uint8Array, bit: number): boolean => (filter[bit >>> 3]! & (1 << (bit & 7))) !== 0;
const setBit = (filter: Uint8Array, bit: number): void => {
  filter[bit >>> 3] = filter[bit >>> 3]! | (1 << (bit & 7));
};

/** A hash of the LONG_PREFIX bytes at `at` (the caller checks they lie inside the buffer). */
function prefixHash(buf: Buffer, at: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < LONG_PREFIX; k += 4) h = Math.imul(h ^ buf.readUInt32BE(at + k), 0x01000193);
  return h >>> 0;
}

/** Needles indexed by their first bytes: short ones by four, long ones by a prefix hash. */
export class NeedleSet {
  private readonly shortByHead = new Map<number, Needle[]>();
  private readonly longByPrefix = new Map<number, Needle[]>();
  private readonly seen = new Set<string>();
  private readonly shortFilter = new Uint8Array(1 << (FILTER_BITS - 3));
  private readonly longFilter = new Uint8Array(1 << (FILTER_BITS - 3));

  get size(): number {
    return this.seen.size;
  }

  add(text: string | null | undefined, kind: NeedleKind = 'text'): void {
    if (!text) return;
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length < MIN_NEEDLE_BYTES) return;
    if (bytes.length <= WINDOW_BYTES) {
      this.put(bytes, kind);
      return;
    }
    for (let at = 0; at + WINDOW_BYTES <= bytes.length; at += WINDOW_STEP) this.put(bytes.subarray(at, at + WINDOW_BYTES), kind);
    this.put(bytes.subarray(bytes.length - WINDOW_BYTES), kind);
  }

  private put(bytes: Buffer, kind: NeedleKind): void {
    const key = `${kind}:${bytes.toString('latin1')}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const needle = { bytes: Buffer.from(bytes), kind };
    const head = bytes.readUInt32BE(0);
    const long = bytes.length >= LONG_PREFIX;
    setBit(long ? this.longFilter : this.shortFilter, bitOf(head));
    const map = long ? this.longByPrefix : this.shortByHead;
    const at = long ? prefixHash(needle.bytes, 0) : head;
    const list = map.get(at);
    if (list) list.push(needle);
    else map.set(at, [needle]);
  }

  /** Reports needles starting in buf[from, to) and lying wholly inside it ('text' first). */
  matchIn(buf: Buffer, from: number, to: number, onMatch: (offset: number, kind: NeedleKind) => void): void {
    for (let i = from; i + MIN_NEEDLE_BYTES <= to; i++) {
      if (buf[i] === 0) continue;
      const head = ((buf[i]! << 24) | (buf[i + 1]! << 16) | (buf[i + 2]! << 8) | buf[i + 3]!) >>> 0;
      const bit = bitOf(head);
      let kind = hasBit(this.shortFilter, bit) ? kindAt(this.shortByHead.get(head), buf, i, to) : null;
      if (kind !== 'text' && i + LONG_PREFIX <= to && hasBit(this.longFilter, bit))
        kind = kindAt(this.longByPrefix.get(prefixHash(buf, i)), buf, i, to) ?? kind;
      if (kind) onMatch(i, kind);
    }
  }
}

/** The kind of the needles of `list` found at buf[at] within `to`: 'text' if any, else 'word'. */
function kindAt(list: readonly Needle[] | undefined, buf: Buffer, at: number, to: number): NeedleKind | null {
  let kind: NeedleKind | null = null;
  for (const n of list ?? []) {
    const b = n.bytes;
    if (at + b.length <= to && buf.compare(b, 0, b.length, at, at + b.length) === 0) {
      if (n.kind === 'text') return 'text';
      kind = n.kind;
    }
  }
  return kind;
}

/** Free regions of one b-tree page: the gap after the cell pointers and the freeblock chain.
 * `strict` (for writing): any inconsistency in the chain yields no region at all. */
export function freeRegions(page: Buffer, hdr: number, usable: number, strict = false): Array<[number, number]> {
  const type = page[hdr];
  if (type !== 2 && type !== 5 && type !== 10 && type !== 13) return [];
  const headerSize = type === 2 || type === 5 ? 12 : 8;
  const cells = page.readUInt16BE(hdr + 3);
  const contentStart = page.readUInt16BE(hdr + 5) || 65536;
  const pointersEnd = hdr + headerSize + 2 * cells;
  if (pointersEnd > contentStart || contentStart > usable) return [];
  const regions: Array<[number, number]> = [[pointersEnd, contentStart]];
  let block = page.readUInt16BE(hdr + 1);
  for (let guard = 0; block !== 0; guard++) {
    const next = block + 4 <= usable ? page.readUInt16BE(block) : 0;
    const size = block + 4 <= usable ? page.readUInt16BE(block + 2) : 0;
    // SQLite's own rule: ascending, inside the content area, never touching the next block.
    if (guard >= usable / 4 || block < contentStart || size < 4 || block + size > usable || (next !== 0 && next <= block + size + 3))
      return strict ? [] : regions;
    regions.push([block + 4, block + size]);
    block = next;
  }
  return regions;
}

interface FileGeometry {
  readonly pageSize: number;
  readonly usable: number;
  readonly pages: number;
  /** The database header's first 100 bytes (freelist head and count, auto-vacuum root). */
  readonly header: Buffer;
}

function geometry(fd: number): FileGeometry | undefined {
  const header = Buffer.alloc(100);
  if (fs.readSync(fd, header, 0, 100, 0) < 100) return undefined;
  const rawSize = header.readUInt16BE(16);
  const pageSize = rawSize === 1 ? 65536 : rawSize;
  return { pageSize, usable: pageSize - header[20]!, pages: Math.floor(fs.fstatSync(fd).size / pageSize), header };
}

/** Calls `visit` for every whole page of the file, in order, reading PAGES_PER_READ at a time. */
function forEachPage(fd: number, geo: FileGeometry, visit: (page: Buffer, pageNo: number) => void): void {
  const buf = Buffer.alloc(geo.pageSize * PAGES_PER_READ);
  for (let first = 0; first < geo.pages; first += PAGES_PER_READ) {
    const read = fs.readSync(fd, buf, 0, Math.min(PAGES_PER_READ, geo.pages - first) * geo.pageSize, first * geo.pageSize);
    for (let i = 0; (i + 1) * geo.pageSize <= read; i++) visit(buf.subarray(i * geo.pageSize, (i + 1) * geo.pageSize), first + i + 1);
  }
}

/** Collects matches up to MAX_HITS, noting whether more were found. */
class HitList {
  readonly hits: Remnant[] = [];
  truncated = false;

  searchIn(needles: NeedleSet, page: Buffer, pageNo: number, from: number, to: number): void {
    needles.matchIn(page, from, to, (offset, kind) => {
      if (this.hits.length < MAX_HITS) this.hits.push({ page: pageNo, offset, kind });
      else this.truncated = true;
    });
  }
}

/** Scans every b-tree page of the database file at `path` (read-only) for the needles. */
export function scanFreeSpace(path: string, needles: NeedleSet): FreeSpaceScan {
  return withRawFile(path, false, (fd) => {
    const geo = geometry(fd);
    if (!geo) return { pages: 0, btreePages: 0, hits: [], truncated: false };
    const found = new HitList();
    let btreePages = 0;
    if (needles.size > 0) {
      forEachPage(fd, geo, (page, pageNo) => {
        const regions = freeRegions(page, pageNo === 1 ? 100 : 0, geo.usable);
        if (regions.length > 0) btreePages++;
        for (const [from, to] of regions) found.searchIn(needles, page, pageNo, from, to);
      });
    }
    return { pages: geo.pages, btreePages, hits: found.hits, truncated: found.truncated };
  });
}

interface Freelist {
  /** Trunk page -> how many leaf numbers it lists (the bytes after them are unused). */
  readonly trunks: Map<number, number>;
  /** Leaf pages: wholly unused. */
  readonly leaves: Set<number>;
}

/** The freelist as the file header and its trunk pages list it; undefined if inconsistent. */
function readFreelist(fd: number, geo: FileGeometry): Freelist | undefined {
  const trunks = new Map<number, number>();
  const leaves = new Set<number>();
  const trunk = Buffer.alloc(geo.pageSize);
  for (let page = geo.header.readUInt32BE(32); page !== 0;) {
    if (page > geo.pages || trunks.has(page) || trunks.size > geo.pages) return undefined;
    fs.readSync(fd, trunk, 0, geo.pageSize, (page - 1) * geo.pageSize);
    const count = trunk.readUInt32BE(4);
    if (8 + 4 * count > geo.usable) return undefined;
    trunks.set(page, count);
    for (let i = 0; i < count; i++) {
      const leaf = trunk.readUInt32BE(8 + 4 * i);
      if (leaf < 2 || leaf > geo.pages) return undefined;
      leaves.add(leaf);
    }
    page = trunk.readUInt32BE(0);
  }
  if (trunks.size + leaves.size !== geo.header.readUInt32BE(36)) return undefined;
  return { trunks, leaves };
}

/** Whether page numbers alone tell b-tree pages here: false for auto-vacuum files (pointer-map
 * pages) and for page numbers so high that an overflow or trunk page's leading next-page bytes
 * could read as a b-tree page type. */
function typeByteSuffices(geo: FileGeometry): boolean {
  return geo.header.readUInt32BE(52) === 0 && geo.pages < 1 << 24;
}

export interface FreeSpaceWipe {
  /** What the free space held before it was zeroed (matches of the needles). */
  readonly scan: FreeSpaceScan;
  readonly pagesZeroed: number;
  readonly bytesZeroed: number;
}

/**
 * One pass over the file at `path`: every b-tree page's free regions (the gap and the freeblock
 * bodies, never a freeblock's header), every freelist leaf page and the unused tail of every
 * freelist trunk page are searched for the needles and then overwritten with zeros, in place,
 * and the file is synced. (secure_delete zeroes what it frees, but a file once written without
 * it keeps old pages on its freelist.) Only free space changes, so the database means what
 * it meant whenever a crash or a concurrent reader meets the file; and every stale fragment
 * goes, not only those long enough to match a needle. The caller must hold SQLite's write lock
 * with an empty WAL (the file then holds every page's newest version). `btreePages` lists the
 * b-tree pages as SQLite walks them, for a file whose page types cannot be told from its bytes.
 */
export function wipeFreeSpace(path: string, needles: NeedleSet, btreePages: () => ReadonlySet<number>): FreeSpaceWipe {
  return withRawFile(path, true, (fd) => {
    const geo = geometry(fd);
    if (!geo) return { scan: { pages: 0, btreePages: 0, hits: [], truncated: false }, pagesZeroed: 0, bytesZeroed: 0 };
    const { pageSize, usable } = geo;
    const freelist = readFreelist(fd, geo);
    const lockBytePage = Math.floor(0x40000000 / pageSize) + 1;
    const walked = freelist && typeByteSuffices(geo) ? undefined : btreePages();
    const isBtree = (pageNo: number): boolean =>
      walked ? walked.has(pageNo) : pageNo !== lockBytePage && !freelist!.leaves.has(pageNo) && !freelist!.trunks.has(pageNo);
    const zeros = Buffer.alloc(pageSize);
    const found = new HitList();
    let btree = 0;
    let pagesZeroed = 0;
    let bytesZeroed = 0;
    forEachPage(fd, geo, (page, pageNo) => {
      let regions: Array<[number, number]>;
      if (isBtree(pageNo)) {
        regions = freeRegions(page, pageNo === 1 ? 100 : 0, usable, true);
        if (regions.length > 0) btree++;
      } else if (freelist?.leaves.has(pageNo)) {
        regions = [[0, usable]];
      } else {
        const listed = freelist?.trunks.get(pageNo);
        regions = listed === undefined ? [] : [[8 + 4 * listed, usable]];
      }
      let touched = false;
      for (const [from, to] of regions) {
        if (to <= from || page.compare(zeros, 0, to - from, from, to) === 0) continue;
        found.searchIn(needles, page, pageNo, from, to);
        fs.writeSync(fd, zeros, 0, to - from, (pageNo - 1) * pageSize + from);
        bytesZeroed += to - from;
        touched = true;
      }
      if (touched) pagesZeroed++;
    });
    if (bytesZeroed > 0) fs.fsyncSync(fd);
    return { scan: { pages: geo.pages, btreePages: btree, hits: found.hits, truncated: found.truncated }, pagesZeroed, bytesZeroed };
  });
}
