import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../store/node-database.js';
import { checksumBytes, recordChecksum, StoredDataDamagedError } from '../store/record-checksum.js';
import { statementOnFirstUse } from '../store/statement-on-first-use.js';

/** Nodes of one level of one tree occupy [tree * TREE_SPAN + level * LEVEL_SPAN, + 2^42). */
export const LEVEL_SPAN = 2 ** 42;
export const TREE_SPAN = 2 ** 48;

/** The integer key of a node (level 0 = leaves) in ws_node, or of a leaf in ws_leaf (level 0). */
export function storeKey(tree: number, level: number, index: number): number {
  return tree * TREE_SPAN + level * LEVEL_SPAN + index;
}

/** Lookups per statement: bounded so the JSON argument stays small and SQLite's stack shallow. */
const LOOKUP_CHUNK = 4096;

/**
 * A lone key is read with a single-row statement; from two keys on one json_each statement is cheaper than a
 * statement per key (measured on a 1M-leaf tree: 3 keys in ~10-15 µs against ~8 µs per single read).
 */
const SINGLE_READS = 1;

/** Rows per multi-row INSERT: a quarter less CPU per row than one statement per row (measured). */
const INSERT_ROWS = 32;

/** The block recorded for a key fetched from a lazy fork's upstream: visible at every block, inserted when unknown. */
export const UPSTREAM_KEY_BLOCK = -1;

export interface StoredBlock {
  readonly hash: Buffer;
  readonly state: Buffer;
}

export interface KeyLookup {
  readonly index: number;
  readonly block: number;
}

/**
 * The SQL side of the world state: prepared statements over the ws_* tables (migration 100). Reads take a
 * block number and see the newest version at or below it. Batched reads pass their keys as one JSON array
 * (json_each) so a whole tree level or a whole sibling path costs one statement, not one per node.
 * Writes are plain prepared inserts: measured at ~550k rows/s, faster than any multi-row form.
 */
export class WorldStateRepository {
  private readonly nodeOne: Statement<[number, number], Buffer>;
  private readonly nodeMany: Statement<[number, string], Buffer | null>;
  private readonly leafOne: Statement<[number, number], Buffer>;
  private readonly leafMany: Statement<[number, string], Buffer | null>;
  private readonly lowOne: Statement<[number, Buffer, number], number>;
  private readonly lowMany: Statement<[number, number, string], number | null>;
  private readonly keyMany: Statement<[string, number, number], unknown[]>;
  private readonly insNode: Statement<[number, number, Buffer, Buffer]>;
  private readonly insNodes: Statement<unknown[]>;
  private readonly insLeaf: Statement<[number, number, Buffer, Buffer, Buffer]>;
  private readonly insLeaves: Statement<unknown[]>;
  private readonly insKey: Statement<[number, Buffer, number, number]>;
  private readonly insKeys: Statement<unknown[]>;
  private readonly insKeyIfNew: Statement<[number, Buffer, number, number]>;
  private readonly insKeysIfNew: Statement<unknown[]>;
  private readonly insNodeIfNew: Statement<[number, number, Buffer, Buffer]>;
  private readonly insLeafIfNew: Statement<[number, number, Buffer, Buffer, Buffer]>;
  private readonly blockGet: Statement<[number], StoredBlock>;
  private readonly blockIns: Statement<[number, Buffer, Buffer]>;
  private readonly journalIns: Statement<[number, number, Buffer, Buffer]>;
  private readonly journalGet: Statement<[number], { tree: number; nodes: Buffer; leaves: Buffer }>;
  private readonly metaGet: Statement<[string], unknown>;
  private readonly metaSet: Statement<[string, unknown]>;
  private readonly delNodeVersion: Statement<[number, number]>;
  private readonly delLeafVersion: Statement<[number, number]>;
  private readonly delNodeOlder: Statement<[number, number]>;
  private readonly delLeafOlder: Statement<[number, number]>;
  private readonly delKeyIfFrom: Statement<[number, Buffer, number]>;
  private readonly nodeRange: Statement<[number, number, number], { k: number; stored: Buffer }>;
  private readonly leafRange: Statement<[number, number, number], { k: number; stored: Buffer }>;

  constructor(readonly db: SqliteDatabase) {
    this.nodeOne = statementOnFirstUse<[number, number], Buffer>(
      db,
      "SELECT CAST(hash || COALESCE(crc, x'') AS BLOB) FROM ws_node WHERE k = ? AND block <= ? ORDER BY block DESC LIMIT 1",
    ).pluck();
    this.nodeMany = statementOnFirstUse<[number, string], Buffer | null>(
      db,
      "SELECT (SELECT CAST(hash || COALESCE(crc, x'') AS BLOB) FROM ws_node WHERE k = j.value AND block <= ? ORDER BY block DESC LIMIT 1) FROM json_each(?) j ORDER BY j.key",
    ).pluck();
    this.leafOne = statementOnFirstUse<[number, number], Buffer>(
      db,
      "SELECT CAST(leaf || hash || COALESCE(crc, x'') AS BLOB) FROM ws_leaf WHERE k = ? AND block <= ? ORDER BY block DESC LIMIT 1",
    ).pluck();
    this.leafMany = statementOnFirstUse<[number, string], Buffer | null>(
      db,
      "SELECT (SELECT CAST(leaf || hash || COALESCE(crc, x'') AS BLOB) FROM ws_leaf WHERE k = j.value AND block <= ? ORDER BY block DESC LIMIT 1) FROM json_each(?) j ORDER BY j.key",
    ).pluck();
    this.lowOne = statementOnFirstUse<[number, Buffer, number], number>(
      db,
      'SELECT idx FROM ws_key WHERE tree = ? AND key <= ? AND block <= ? ORDER BY key DESC LIMIT 1',
    ).pluck();
    this.lowMany = statementOnFirstUse<[number, number, string], number | null>(
      db,
      'SELECT (SELECT idx FROM ws_key WHERE tree = ? AND key <= unhex(j.value) AND block <= ? ORDER BY key DESC LIMIT 1) FROM json_each(?) j ORDER BY j.key',
    ).pluck();
    this.keyMany = statementOnFirstUse<[string, number, number], unknown[]>(
      db,
      'SELECT k.idx, k.block FROM json_each(?) j LEFT JOIN ws_key k ON k.tree = ? AND k.key = unhex(j.value) AND k.block <= ? ORDER BY j.key',
    ).raw();
    const rows = (n: number) =>
      Array.from({ length: INSERT_ROWS }, () => `(${new Array(n).fill('?').join(', ')})`).join(', ');
    this.insNode = statementOnFirstUse(db, 'INSERT INTO ws_node (k, block, hash, crc) VALUES (?, ?, ?, ?)');
    this.insNodes = statementOnFirstUse(db, `INSERT INTO ws_node (k, block, hash, crc) VALUES ${rows(4)}`);
    this.insLeaf = statementOnFirstUse(db, 'INSERT INTO ws_leaf (k, block, leaf, hash, crc) VALUES (?, ?, ?, ?, ?)');
    this.insLeaves = statementOnFirstUse(db, `INSERT INTO ws_leaf (k, block, leaf, hash, crc) VALUES ${rows(5)}`);
    this.insKey = statementOnFirstUse(db, 'INSERT INTO ws_key (tree, key, idx, block) VALUES (?, ?, ?, ?)');
    this.insKeys = statementOnFirstUse(db, `INSERT INTO ws_key (tree, key, idx, block) VALUES ${rows(4)}`);
    this.insKeyIfNew = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO ws_key (tree, key, idx, block) VALUES (?, ?, ?, ?)',
    );
    this.insKeysIfNew = statementOnFirstUse(
      db,
      `INSERT OR IGNORE INTO ws_key (tree, key, idx, block) VALUES ${rows(4)}`,
    );
    this.insNodeIfNew = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO ws_node (k, block, hash, crc) VALUES (?, ?, ?, ?)',
    );
    this.insLeafIfNew = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO ws_leaf (k, block, leaf, hash, crc) VALUES (?, ?, ?, ?, ?)',
    );
    this.blockGet = statementOnFirstUse<[number], StoredBlock>(db, 'SELECT hash, state FROM ws_block WHERE block = ?');
    this.blockIns = statementOnFirstUse(db, 'INSERT INTO ws_block (block, hash, state) VALUES (?, ?, ?)');
    this.journalIns = statementOnFirstUse(
      db,
      'INSERT INTO ws_journal (block, tree, nodes, leaves) VALUES (?, ?, ?, ?)',
    );
    this.journalGet = statementOnFirstUse<[number], { tree: number; nodes: Buffer; leaves: Buffer }>(
      db,
      'SELECT tree, nodes, leaves FROM ws_journal WHERE block = ?',
    );
    this.metaGet = statementOnFirstUse<[string], unknown>(db, 'SELECT value FROM ws_meta WHERE name = ?').pluck();
    this.metaSet = statementOnFirstUse(
      db,
      'INSERT INTO ws_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    );
    this.delNodeVersion = statementOnFirstUse(db, 'DELETE FROM ws_node WHERE k = ? AND block = ?');
    this.delLeafVersion = statementOnFirstUse(db, 'DELETE FROM ws_leaf WHERE k = ? AND block = ?');
    this.delNodeOlder = statementOnFirstUse(db, 'DELETE FROM ws_node WHERE k = ? AND block < ?');
    this.delLeafOlder = statementOnFirstUse(db, 'DELETE FROM ws_leaf WHERE k = ? AND block < ?');
    this.delKeyIfFrom = statementOnFirstUse(db, 'DELETE FROM ws_key WHERE tree = ? AND key = ? AND block > ?');
    this.nodeRange = statementOnFirstUse<[number, number, number], { k: number; stored: Buffer }>(
      db,
      "SELECT k, CAST(hash || COALESCE(crc, x'') AS BLOB) AS stored FROM ws_node WHERE k >= ? AND k < ? AND block > ?",
    );
    this.leafRange = statementOnFirstUse<[number, number, number], { k: number; stored: Buffer }>(
      db,
      "SELECT k, CAST(leaf || hash || COALESCE(crc, x'') AS BLOB) AS stored FROM ws_leaf WHERE k >= ? AND k < ? AND block > ?",
    );
  }

  getNode(key: number, block: number): Buffer | undefined {
    const stored = this.nodeOne.get(key, block);
    return stored && this.checked('ws_node', key, block, stored);
  }

  /** Newest hash at or below `block` for each key, in order; null where none was ever written. */
  getNodes(keys: readonly number[], block: number): (Buffer | null)[] {
    const stored =
      keys.length <= SINGLE_READS
        ? keys.map((k) => this.nodeOne.get(k, block) ?? null)
        : this.chunked(keys, (part) => this.nodeMany.all(block, JSON.stringify(part)));
    return this.checkedAll('ws_node', keys, block, stored);
  }

  getLeaf(key: number, block: number): Buffer | undefined {
    const stored = this.leafOne.get(key, block);
    return stored && leafOf(this.checked('ws_leaf', key, block, stored));
  }

  getLeaves(keys: readonly number[], block: number): (Buffer | null)[] {
    return this.leafRows(keys, block).map((b) => b && leafOf(b));
  }

  /** Leaf hashes of indexed-tree leaves (stored with their preimages), newest at or below `block`. */
  getLeafHashes(keys: readonly number[], block: number): (Buffer | null)[] {
    return this.leafRows(keys, block).map((b) => b && leafHashOf(b));
  }

  /** Preimage and hash of each leaf (one blob, the hash last), checked. */
  private leafRows(keys: readonly number[], block: number): (Buffer | null)[] {
    const stored =
      keys.length <= SINGLE_READS
        ? keys.map((k) => this.leafOne.get(k, block) ?? null)
        : this.chunked(keys, (part) => this.leafMany.all(block, JSON.stringify(part)));
    return this.checkedAll('ws_leaf', keys, block, stored);
  }

  private checkedAll(
    table: string,
    keys: readonly number[],
    block: number,
    stored: readonly (Buffer | null)[],
  ): (Buffer | null)[] {
    const out = new Array<Buffer | null>(stored.length);
    for (let i = 0; i < stored.length; i++) {
      const s = stored[i];
      out[i] = s ? this.checked(table, keys[i] as number, block, s) : null;
    }
    return out;
  }

  /**
   * The value of a stored `value || crc` blob once its checksum holds (docs/architecture.md section 4.12); a
   * damaged row (or one without a checksum) throws StoredDataDamagedError naming it. (The reads CAST the
   * concatenation back to a blob: SQLite's `||` makes text of blobs, keeping the bytes.)
   */
  private checked(table: string, key: number, block: number, stored: Buffer): Buffer {
    const end = stored.length - CHECKSUM_BYTES;
    const value = stored.subarray(0, Math.max(0, end));
    if (end < 0 || stored.readUInt32BE(end) !== recordChecksum(key, value)) {
      throw new StoredDataDamagedError(this.db.name, `${describeKey(key)} as of block ${block} (${table})`);
    }
    return value;
  }

  /** For each key, the index of the leaf with the largest key <= it, among keys inserted at or before `block`. */
  findLowIndices(tree: number, keys: readonly Buffer[], block: number): (number | null)[] {
    if (keys.length <= SINGLE_READS) return keys.map((k) => this.lowOne.get(tree, k, block) ?? null);
    return this.chunked(keys, (part) => this.lowMany.all(tree, block, hexArray(part)));
  }

  /** For each key, the index of the leaf holding it and the block that inserted it, if inserted by `block`. */
  findKeys(tree: number, keys: readonly Buffer[], block: number): (KeyLookup | null)[] {
    return this.chunked(keys, (part) =>
      this.keyMany.all(hexArray(part), tree, block).map((row) => {
        const [index, at] = row as [number | null, number | null];
        return index === null ? null : { index, block: at as number };
      }),
    );
  }

  getBlock(block: number): StoredBlock | undefined {
    return this.blockGet.get(block);
  }

  getMeta(name: string): unknown {
    return this.metaGet.get(name);
  }

  setMeta(name: string, value: number | bigint | string | Buffer): void {
    this.metaSet.run(name, value);
  }

  /** Node rows [store key, hash] of one block. */
  insertNodes(block: number, rows: readonly (readonly [number, Buffer])[]): void {
    const args = new Array<unknown>(INSERT_ROWS * 4);
    let i = 0;
    for (; i + INSERT_ROWS <= rows.length; i += INSERT_ROWS) {
      for (let j = 0; j < INSERT_ROWS; j++) {
        const [k, hash] = rows[i + j] as readonly [number, Buffer];
        args[j * 4] = k;
        args[j * 4 + 1] = block;
        args[j * 4 + 2] = hash;
        args[j * 4 + 3] = checksumBytes(recordChecksum(k, hash));
      }
      this.insNodes.run(args);
    }
    for (; i < rows.length; i++) {
      const [k, hash] = rows[i] as readonly [number, Buffer];
      this.insNode.run(k, block, hash, checksumBytes(recordChecksum(k, hash)));
    }
  }

  /** Indexed-tree leaf rows [store key, encoded preimage, leaf hash] of one block. */
  insertLeaves(block: number, rows: readonly (readonly [number, Buffer, Buffer])[]): void {
    const args = new Array<unknown>(INSERT_ROWS * 5);
    let i = 0;
    for (; i + INSERT_ROWS <= rows.length; i += INSERT_ROWS) {
      for (let j = 0; j < INSERT_ROWS; j++) {
        const [k, leaf, hash] = rows[i + j] as readonly [number, Buffer, Buffer];
        args[j * 5] = k;
        args[j * 5 + 1] = block;
        args[j * 5 + 2] = leaf;
        args[j * 5 + 3] = hash;
        args[j * 5 + 4] = checksumBytes(recordChecksum(k, leaf, hash));
      }
      this.insLeaves.run(args);
    }
    for (; i < rows.length; i++) {
      const [k, leaf, hash] = rows[i] as readonly [number, Buffer, Buffer];
      this.insLeaf.run(k, block, leaf, hash, checksumBytes(recordChecksum(k, leaf, hash)));
    }
  }

  /**
   * Key rows [key, leaf index] of one tree and block. Indexed-tree keys are unique (a duplicate is a bug
   * upstream); append-only values keep their first index (`firstWins`).
   */
  insertKeys(tree: number, block: number, rows: readonly (readonly [Buffer, number])[], firstWins: boolean): void {
    const many = firstWins ? this.insKeysIfNew : this.insKeys;
    const one = firstWins ? this.insKeyIfNew : this.insKey;
    const args = new Array<unknown>(INSERT_ROWS * 4);
    let i = 0;
    for (; i + INSERT_ROWS <= rows.length; i += INSERT_ROWS) {
      for (let j = 0; j < INSERT_ROWS; j++) {
        const [key, index] = rows[i + j] as readonly [Buffer, number];
        args[j * 4] = tree;
        args[j * 4 + 1] = key;
        args[j * 4 + 2] = index;
        args[j * 4 + 3] = block;
      }
      many.run(args);
    }
    for (; i < rows.length; i++) {
      const [key, index] = rows[i] as readonly [Buffer, number];
      one.run(tree, key, index, block);
    }
  }

  /**
   * Rows a lazy fork fetched from its upstream (WorldState.addUpstreamPath): the same row may come twice (two
   * witnesses share a node), and it is the same value both times, so a second copy is ignored.
   */
  insertUpstreamRows(
    block: number,
    nodes: readonly (readonly [number, Buffer])[],
    leaves: readonly (readonly [number, Buffer, Buffer])[],
  ): void {
    for (const [k, hash] of nodes) this.insNodeIfNew.run(k, block, hash, checksumBytes(recordChecksum(k, hash)));
    for (const [k, leaf, hash] of leaves) {
      this.insLeafIfNew.run(k, block, leaf, hash, checksumBytes(recordChecksum(k, leaf, hash)));
    }
  }

  /**
   * Where the upstream says a key or value is and the block that inserted it (node_findLeavesIndexes there): it
   * takes the place of a row without that block, and of a later local append of the same value (the first wins).
   */
  upsertUpstreamKey(tree: number, key: Buffer, index: number, block: number): void {
    this.db
      .prepare(
        'INSERT INTO ws_key (tree, key, idx, block) VALUES (?, ?, ?, ?) ON CONFLICT (tree, key) DO UPDATE SET idx = excluded.idx, block = excluded.block',
      )
      .run(tree, key, index, block);
  }

  /** An upstream key's row (see insertUpstreamRows); `block` -1 marks a key whose inserting block is not known. */
  insertUpstreamKey(tree: number, key: Buffer, index: number): void {
    this.insKeyIfNew.run(tree, key, index, UPSTREAM_KEY_BLOCK);
  }

  insertBlock(block: number, hash: Buffer, state: Buffer): void {
    this.blockIns.run(block, hash, state);
  }

  insertJournal(block: number, tree: number, nodes: Buffer, leaves: Buffer): void {
    this.journalIns.run(block, tree, nodes, leaves);
  }

  getJournal(block: number): { tree: number; nodes: Buffer; leaves: Buffer }[] {
    return this.journalGet.all(block);
  }

  deleteNodeVersion(key: number, block: number): void {
    this.delNodeVersion.run(key, block);
  }

  deleteLeafVersion(key: number, block: number): void {
    this.delLeafVersion.run(key, block);
  }

  /** Drops versions of a node older than `block` (they are superseded once `block` is the oldest readable). */
  deleteNodeVersionsBefore(key: number, block: number): void {
    this.delNodeOlder.run(key, block);
  }

  deleteLeafVersionsBefore(key: number, block: number): void {
    this.delLeafOlder.run(key, block);
  }

  /** Removes a key inserted after `block` (unwinding). */
  deleteKeyInsertedAfter(tree: number, key: Buffer, block: number): void {
    this.delKeyIfFrom.run(tree, key, block);
  }

  /** Leaf-level node rows of keys in [from, to) written after `block` (append-only values to unindex). */
  nodesWrittenAfter(from: number, to: number, block: number): { k: number; hash: Buffer }[] {
    return this.nodeRange
      .all(from, to, block)
      .map((r) => ({ k: r.k, hash: this.checked('ws_node', r.k, block, r.stored) }));
  }

  leavesWrittenAfter(from: number, to: number, block: number): { k: number; leaf: Buffer }[] {
    return this.leafRange
      .all(from, to, block)
      .map((r) => ({ k: r.k, leaf: leafOf(this.checked('ws_leaf', r.k, block, r.stored)) }));
  }

  /** Store keys of the node and leaf rows a block wrote into one tree (from its journal). */
  rowsWrittenIn(tree: number, block: number): { nodes: number[]; leaves: number[] } {
    const row = this.journalGet.all(block).find((j) => j.tree === tree);
    const base = tree * TREE_SPAN;
    const unpack = (buf: Buffer | undefined) => {
      const out: number[] = [];
      for (let o = 0; buf && o + 6 <= buf.length; o += 6) out.push(base + buf.readUIntBE(o, 6));
      return out;
    };
    return { nodes: unpack(row?.nodes), leaves: unpack(row?.leaves) };
  }

  /** Store keys of every node and leaf row of one tree written at or below `block` (the oldest kept block). */
  rowsAtOrBelow(tree: number, block: number): { nodes: number[]; leaves: number[] } {
    const base = tree * TREE_SPAN;
    const keys = (table: string) =>
      this.db
        .prepare(`SELECT DISTINCT k FROM ${table} WHERE k >= ? AND k < ? AND block <= ?`)
        .pluck()
        .all(base, base + TREE_SPAN, block) as number[];
    return { nodes: keys('ws_node'), leaves: keys('ws_leaf') };
  }

  /** Every node and leaf row whose checksum fails (`l2node db check`): table, key and block. */
  *damagedRows(): IterableIterator<{ table: string; k: number; block: number }> {
    const nodes = this.db.prepare('SELECT k, block, hash, crc FROM ws_node').iterate() as IterableIterator<{
      k: number;
      block: number;
      hash: Buffer;
      crc: Buffer | null;
    }>;
    for (const r of nodes) {
      if (!r.crc || r.crc.length !== CHECKSUM_BYTES || r.crc.readUInt32BE(0) !== recordChecksum(r.k, r.hash)) {
        yield { table: 'ws_node', k: r.k, block: r.block };
      }
    }
    const leaves = this.db.prepare('SELECT k, block, leaf, hash, crc FROM ws_leaf').iterate() as IterableIterator<{
      k: number;
      block: number;
      leaf: Buffer;
      hash: Buffer;
      crc: Buffer | null;
    }>;
    for (const r of leaves) {
      if (!r.crc || r.crc.length !== CHECKSUM_BYTES || r.crc.readUInt32BE(0) !== recordChecksum(r.k, r.leaf, r.hash)) {
        yield { table: 'ws_leaf', k: r.k, block: r.block };
      }
    }
  }

  deleteBlocksAbove(block: number): void {
    this.db.prepare('DELETE FROM ws_block WHERE block > ?').run(block);
    this.db.prepare('DELETE FROM ws_journal WHERE block > ?').run(block);
  }

  deleteHistoryBelow(block: number): void {
    this.db.prepare('DELETE FROM ws_block WHERE block < ?').run(block);
    this.db.prepare('DELETE FROM ws_journal WHERE block <= ?').run(block);
  }

  /** Empties every world-state table (a forced rewind past history: the trees restart from genesis). */
  clearAll(): void {
    this.db.exec(
      'DELETE FROM ws_node; DELETE FROM ws_leaf; DELETE FROM ws_key; DELETE FROM ws_block; DELETE FROM ws_journal; DELETE FROM ws_meta;',
    );
  }

  private chunked<K, R>(keys: readonly K[], run: (part: readonly K[]) => R[]): R[] {
    if (keys.length <= LOOKUP_CHUNK) return run(keys);
    const out: R[] = [];
    for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
      for (const r of run(keys.slice(i, i + LOOKUP_CHUNK))) out.push(r);
    }
    return out;
  }
}

const CHECKSUM_BYTES = 4;
const HASH_BYTES = 32;

/** The preimage of a checked `leaf || hash` value. */
function leafOf(value: Buffer): Buffer {
  return value.subarray(0, value.length - HASH_BYTES);
}

/** The leaf hash of a checked `leaf || hash` value. */
function leafHashOf(value: Buffer): Buffer {
  return value.subarray(value.length - HASH_BYTES);
}

/** A store key as a person reads it: tree, level and index. */
export function describeKey(key: number): string {
  const tree = Math.floor(key / TREE_SPAN);
  const level = Math.floor((key % TREE_SPAN) / LEVEL_SPAN);
  return `world-state tree ${tree} ${level === 0 ? 'leaf' : `level-${level} node`} ${key % LEVEL_SPAN}`;
}

function hexArray(keys: readonly Buffer[]): string {
  let s = '[';
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) s += ',';
    s += `"${(keys[i] as Buffer).toString('hex')}"`;
  }
  return `${s}]`;
}
