import { BlockHash } from '../block-hash.js';
import { BLOCK_HEADER_LENGTH, DomainSeparator } from '../constants.js';
import { Fr } from '../fr.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import { FieldWriter } from '../serialize/field-writer.js';
import { readFr, readObject } from '../serialize/json-reader.js';
import { AppendOnlyTreeSnapshot, type AppendOnlyTreeSnapshotJson } from './append-only-tree-snapshot.js';
import { GlobalVariables, type GlobalVariablesJson } from './global-variables.js';
import { StateReference, type StateReferenceJson } from './state-reference.js';

export interface BlockHeaderJson {
  lastArchive: AppendOnlyTreeSnapshotJson;
  state: StateReferenceJson;
  spongeBlobHash: string;
  globalVariables: GlobalVariablesJson;
  totalFees: string;
  totalManaUsed: string;
}

export interface BlockHeaderFields {
  lastArchive: AppendOnlyTreeSnapshot;
  state: StateReference;
  spongeBlobHash: Fr;
  globalVariables: GlobalVariables;
  totalFees: Fr;
  totalManaUsed: Fr;
}

/**
 * An L2 block header (4.1.2 tx/block_header.ts). Its hash is the block hash and the block's archive leaf:
 * Poseidon2 with the BLOCK_HEADER_HASH separator over its 22 fields, in member order
 * (docs/aztec-facts.md section 4.1). Binary form, 440 bytes: lastArchive (36), state (180), spongeBlobHash (32),
 * globalVariables (164), totalFees (32), totalManaUsed (32). Immutable; the hash is computed once.
 */
export class BlockHeader {
  static readonly SIZE_IN_BYTES = 440;
  static readonly FIELD_COUNT = BLOCK_HEADER_LENGTH;

  #hash: BlockHash | undefined;

  constructor(
    /** The archive tree before this block. */
    readonly lastArchive: AppendOnlyTreeSnapshot,
    readonly state: StateReference,
    /** The blob sponge after this block's tx effects (may include earlier blocks of the checkpoint). */
    readonly spongeBlobHash: Fr,
    readonly globalVariables: GlobalVariables,
    readonly totalFees: Fr,
    readonly totalManaUsed: Fr,
  ) {}

  static from(f: BlockHeaderFields): BlockHeader {
    return new BlockHeader(f.lastArchive, f.state, f.spongeBlobHash, f.globalVariables, f.totalFees, f.totalManaUsed);
  }

  /** The all-zero header (its hash is a reference vector). */
  static empty(overrides: Partial<BlockHeaderFields> = {}): BlockHeader {
    return BlockHeader.from({
      lastArchive: AppendOnlyTreeSnapshot.EMPTY,
      state: StateReference.empty(),
      spongeBlobHash: Fr.ZERO,
      globalVariables: GlobalVariables.empty(),
      totalFees: Fr.ZERO,
      totalManaUsed: Fr.ZERO,
      ...overrides,
    });
  }

  get blockNumber(): number {
    return this.globalVariables.blockNumber;
  }

  get slotNumber(): number {
    return this.globalVariables.slotNumber;
  }

  get timestamp(): bigint {
    return this.globalVariables.timestamp;
  }

  isEmpty(): boolean {
    return (
      this.lastArchive.isEmpty() &&
      this.state.isEmpty() &&
      this.spongeBlobHash.isZero() &&
      this.globalVariables.isEmpty() &&
      this.totalFees.isZero() &&
      this.totalManaUsed.isZero()
    );
  }

  equals(other: BlockHeader): boolean {
    return (
      this.lastArchive.equals(other.lastArchive) &&
      this.state.equals(other.state) &&
      this.spongeBlobHash.equals(other.spongeBlobHash) &&
      this.globalVariables.equals(other.globalVariables) &&
      this.totalFees.equals(other.totalFees) &&
      this.totalManaUsed.equals(other.totalManaUsed)
    );
  }

  /** The block hash. */
  hash(): BlockHash {
    if (this.#hash === undefined) {
      const f = new FieldWriter(BLOCK_HEADER_LENGTH);
      this.writeFields(f);
      this.#hash = new BlockHash(f.hashWithSeparator(DomainSeparator.BLOCK_HEADER_HASH));
    }
    return this.#hash;
  }

  /** The 22 fields that are hashed. */
  toFields(): bigint[] {
    const f = new FieldWriter(BLOCK_HEADER_LENGTH);
    this.writeFields(f);
    return f.toBigInts();
  }

  writeFields(f: FieldWriter): void {
    this.lastArchive.writeFields(f);
    this.state.writeFields(f);
    f.fr(this.spongeBlobHash);
    this.globalVariables.writeFields(f);
    f.fr(this.totalFees);
    f.fr(this.totalManaUsed);
  }

  static read(r: BufferReader, name = 'header'): BlockHeader {
    return new BlockHeader(
      AppendOnlyTreeSnapshot.read(r, `${name}.lastArchive`),
      StateReference.read(r, `${name}.state`),
      r.readFr(name, 'spongeBlobHash'),
      GlobalVariables.read(r, `${name}.globalVariables`),
      r.readFr(name, 'totalFees'),
      r.readFr(name, 'totalManaUsed'),
    );
  }

  write(w: BufferWriter): void {
    this.lastArchive.write(w);
    this.state.write(w);
    w.writeFr(this.spongeBlobHash);
    this.globalVariables.write(w);
    w.writeFr(this.totalFees);
    w.writeFr(this.totalManaUsed);
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(BlockHeader.SIZE_IN_BYTES);
    this.write(w);
    return w.toBuffer();
  }

  /** Parses exactly one 440-byte header. */
  static fromBuffer(buf: Uint8Array, name = 'header'): BlockHeader {
    const r = new BufferReader(buf);
    const h = BlockHeader.read(r, name);
    r.assertEnd(name);
    return h;
  }

  /** The 4.1.2 wire form, without the `_cachedHash` artefact 4.1.2 leaks. */
  toJSON(): BlockHeaderJson {
    return {
      lastArchive: this.lastArchive.toJSON(),
      state: this.state.toJSON(),
      spongeBlobHash: this.spongeBlobHash.toString(),
      globalVariables: this.globalVariables.toJSON(),
      totalFees: this.totalFees.toString(),
      totalManaUsed: this.totalManaUsed.toString(),
    };
  }

  /** Reads the wire form; stray keys (such as `_cachedHash`) are ignored. */
  static fromJSON(json: unknown, path = 'header'): BlockHeader {
    const o = readObject(json, path);
    return new BlockHeader(
      AppendOnlyTreeSnapshot.fromJSON(o.lastArchive, joinPath(path, 'lastArchive')),
      StateReference.fromJSON(o.state, joinPath(path, 'state')),
      readFr(o.spongeBlobHash, path, 'spongeBlobHash'),
      GlobalVariables.fromJSON(o.globalVariables, joinPath(path, 'globalVariables')),
      readFr(o.totalFees, path, 'totalFees'),
      readFr(o.totalManaUsed, path, 'totalManaUsed'),
    );
  }
}
