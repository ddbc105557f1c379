import { AztecAddress } from '../aztec-address.js';
import { sha256ToField } from '../crypto/sha256-to-field.js';
import { EthAddress } from '../eth-address.js';
import { Fr } from '../fr.js';
import { GasFees, type GasFeesJson } from '../gas/gas-fees.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import {
  readAztecAddress,
  readBigInt,
  readEthAddress,
  readFr,
  readInteger,
  readObject,
  U64_MAX,
} from '../serialize/json-reader.js';

export interface CheckpointHeaderJson {
  lastArchiveRoot: string;
  blockHeadersHash: string;
  blobsHash: string;
  inHash: string;
  epochOutHash: string;
  slotNumber: number;
  timestamp: string;
  coinbase: string;
  feeRecipient: string;
  gasFees: GasFeesJson;
  totalManaUsed: string;
}

export interface CheckpointHeaderFields {
  lastArchiveRoot: Fr;
  blockHeadersHash: Fr;
  blobsHash: Fr;
  inHash: Fr;
  epochOutHash: Fr;
  slotNumber: number;
  timestamp: bigint;
  coinbase: EthAddress;
  feeRecipient: AztecAddress;
  gasFees: GasFees;
  totalManaUsed: Fr;
}

/**
 * The header of a checkpoint, the blocks one proposer publishes to L1 for one slot (4.1.2
 * rollup/checkpoint_header.ts). Binary, 316 bytes, in the order the L1 rollup contract reads it: five roots
 * and hashes (32 B each), the slot as a 32-byte field, timestamp (u64), coinbase (20 B), fee recipient
 * (32 B), gas fees (2 x u128), total mana used (32 B). Its hash is sha256ToField of that serialisation.
 */
export class CheckpointHeader {
  static readonly SIZE_IN_BYTES = 316;

  #hash: Fr | undefined;

  constructor(
    /** Archive root before the checkpoint's first block. */
    readonly lastArchiveRoot: Fr,
    readonly blockHeadersHash: Fr,
    readonly blobsHash: Fr,
    /** Root of the checkpoint's L1-to-L2 message subtree. */
    readonly inHash: Fr,
    /** Out-hash tree root of the epoch so far (this checkpoint included). */
    readonly epochOutHash: Fr,
    readonly slotNumber: number,
    readonly timestamp: bigint,
    readonly coinbase: EthAddress,
    readonly feeRecipient: AztecAddress,
    readonly gasFees: GasFees,
    readonly totalManaUsed: Fr,
  ) {
    if (!Number.isSafeInteger(slotNumber) || slotNumber < 0) throw new RangeError(`Invalid slot number ${slotNumber}`);
    if (timestamp < 0n || timestamp > U64_MAX) throw new RangeError(`timestamp must be a u64, got ${timestamp}`);
  }

  static from(f: CheckpointHeaderFields): CheckpointHeader {
    return new CheckpointHeader(
      f.lastArchiveRoot,
      f.blockHeadersHash,
      f.blobsHash,
      f.inHash,
      f.epochOutHash,
      f.slotNumber,
      f.timestamp,
      f.coinbase,
      f.feeRecipient,
      f.gasFees,
      f.totalManaUsed,
    );
  }

  /** The all-zero header; its hash is GENESIS_CHECKPOINT_HEADER_HASH. */
  static empty(overrides: Partial<CheckpointHeaderFields> = {}): CheckpointHeader {
    return CheckpointHeader.from({
      lastArchiveRoot: Fr.ZERO,
      blockHeadersHash: Fr.ZERO,
      blobsHash: Fr.ZERO,
      inHash: Fr.ZERO,
      epochOutHash: Fr.ZERO,
      slotNumber: 0,
      timestamp: 0n,
      coinbase: EthAddress.ZERO,
      feeRecipient: AztecAddress.ZERO,
      gasFees: GasFees.ZERO,
      totalManaUsed: Fr.ZERO,
      ...overrides,
    });
  }

  equals(other: CheckpointHeader): boolean {
    return this.toBuffer().equals(other.toBuffer());
  }

  hash(): Fr {
    this.#hash ??= new Fr(sha256ToField(this.toBuffer()));
    return this.#hash;
  }

  write(w: BufferWriter): void {
    w.writeFr(this.lastArchiveRoot);
    w.writeFr(this.blockHeadersHash);
    w.writeFr(this.blobsHash);
    w.writeFr(this.inHash);
    w.writeFr(this.epochOutHash);
    w.writeField(BigInt(this.slotNumber));
    w.writeU64(this.timestamp);
    w.writeBytes(this.coinbase.bytes);
    w.writeField(this.feeRecipient.value);
    this.gasFees.write(w);
    w.writeFr(this.totalManaUsed);
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(CheckpointHeader.SIZE_IN_BYTES);
    this.write(w);
    return w.toBuffer();
  }

  static read(r: BufferReader, name = 'checkpointHeader'): CheckpointHeader {
    const lastArchiveRoot = r.readFr(name, 'lastArchiveRoot');
    const blockHeadersHash = r.readFr(name, 'blockHeadersHash');
    const blobsHash = r.readFr(name, 'blobsHash');
    const inHash = r.readFr(name, 'inHash');
    const epochOutHash = r.readFr(name, 'epochOutHash');
    const slot = r.readFieldValue(name, 'slotNumber');
    if (slot > BigInt(Number.MAX_SAFE_INTEGER)) throw r.error(name, 'slotNumber', `slot ${slot} is too large`);
    return new CheckpointHeader(
      lastArchiveRoot,
      blockHeadersHash,
      blobsHash,
      inHash,
      epochOutHash,
      Number(slot),
      r.readU64(name, 'timestamp'),
      EthAddress.fromBuffer(r.readBytes(20, name, 'coinbase')),
      new AztecAddress(r.readFieldValue(name, 'feeRecipient')),
      GasFees.read(r, `${name}.gasFees`),
      r.readFr(name, 'totalManaUsed'),
    );
  }

  static fromBuffer(buf: Uint8Array, name = 'checkpointHeader'): CheckpointHeader {
    const r = new BufferReader(buf);
    const h = CheckpointHeader.read(r, name);
    r.assertEnd(name);
    return h;
  }

  /** 4.1.2 has no custom toJSON here: its plain serialisation writes the slot as a number, the timestamp as a decimal. */
  toJSON(): CheckpointHeaderJson {
    return {
      lastArchiveRoot: this.lastArchiveRoot.toString(),
      blockHeadersHash: this.blockHeadersHash.toString(),
      blobsHash: this.blobsHash.toString(),
      inHash: this.inHash.toString(),
      epochOutHash: this.epochOutHash.toString(),
      slotNumber: this.slotNumber,
      timestamp: this.timestamp.toString(),
      coinbase: this.coinbase.toString(),
      feeRecipient: this.feeRecipient.toString(),
      gasFees: this.gasFees.toJSON(),
      totalManaUsed: this.totalManaUsed.toString(),
    };
  }

  static fromJSON(json: unknown, path = 'checkpointHeader'): CheckpointHeader {
    const o = readObject(json, path);
    return new CheckpointHeader(
      readFr(o.lastArchiveRoot, path, 'lastArchiveRoot'),
      readFr(o.blockHeadersHash, path, 'blockHeadersHash'),
      readFr(o.blobsHash, path, 'blobsHash'),
      readFr(o.inHash, path, 'inHash'),
      readFr(o.epochOutHash, path, 'epochOutHash'),
      readInteger(o.slotNumber, path, 'slotNumber'),
      readBigInt(o.timestamp, path, 'timestamp', U64_MAX),
      readEthAddress(o.coinbase, path, 'coinbase'),
      readAztecAddress(o.feeRecipient, path, 'feeRecipient'),
      GasFees.fromJSON(o.gasFees, joinPath(path, 'gasFees')),
      readFr(o.totalManaUsed, path, 'totalManaUsed'),
    );
  }
}
