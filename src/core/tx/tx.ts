import type { GasSettings } from '../gas/gas-settings.js';
import { PrivateKernelTailCircuitPublicInputs } from '../kernel/private-kernel-tail-circuit-public-inputs.js';
import { ContractClassLog } from '../logs/contract-class-log.js';
import { ContractClassLogFields, type ContractClassLogFieldsJson } from '../logs/contract-class-log-fields.js';
import { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import { readField32 } from '../serialize/field-bytes.js';
import { readArray, readBuffer, readObject } from '../serialize/json-reader.js';
import { TxHash } from '../tx-hash.js';
import { ChonkProof } from './chonk-proof.js';
import { HashedValues, type HashedValuesJson } from './hashed-values.js';

export interface TxJson {
  txHash: string;
  /** Base64 of the binary PrivateKernelTailCircuitPublicInputs. */
  data: string;
  /** Base64 of the proof (u32 count + fields). */
  chonkProof: string;
  contractClassLogFields: ContractClassLogFieldsJson[];
  publicFunctionCalldata: HashedValuesJson[];
}

/** The binary forms prefix these lists with one byte. */
const MAX_LIST = 255;

/**
 * A transaction as clients send it (4.1.2 Tx, docs/aztec-facts.md section 2.1): the private kernel tail's
 * public inputs, the proof, and the data they commit to by hash (contract class log payloads, public call
 * calldata). Immutable.
 *
 * The tx hash is derived from `data` (see PrivateKernelTailCircuitPublicInputs.computeTxHash). From JSON the
 * sender's `txHash` is ignored and the hash recomputed, as 4.1.2's schema does; the binary form carries a
 * claimed hash, which validators compare against the recomputed one.
 *
 * Binary (4.1.2 Tx.toBuffer, the p2p and storage form; its length is what the 512 KiB size limit measures):
 * txHash (32 B), data, proof, one-byte count + contract class log fields, one-byte count + calldata.
 */
export class Tx {
  #txHash: TxHash | undefined;
  #dataBytes: Buffer | undefined;

  constructor(
    readonly data: PrivateKernelTailCircuitPublicInputs,
    readonly chonkProof: ChonkProof,
    /** One per non-empty contract class log hash in `data`, in the same order. */
    readonly contractClassLogFields: readonly ContractClassLogFields[],
    /** One per enqueued public call (setup, app logic, teardown), matched by calldata hash. */
    readonly publicFunctionCalldata: readonly HashedValues[],
    /** A hash claimed by the sender (binary form); when absent it is computed from `data`. */
    claimedTxHash?: TxHash,
  ) {
    if (contractClassLogFields.length > MAX_LIST) throw new RangeError('Too many contract class log fields');
    if (publicFunctionCalldata.length > MAX_LIST) throw new RangeError('Too many public function calldata entries');
    this.#txHash = claimedTxHash;
  }

  /** Keeps the exact bytes `data` was decoded from, so that encoding the tx again does not re-serialise it. */
  static #decoded(tx: Tx, dataBytes: Buffer): Tx {
    tx.#dataBytes = dataBytes;
    return tx;
  }

  /** The tx hash: the claimed one if the tx came with one, else computed from `data` (once). */
  get txHash(): TxHash {
    this.#txHash ??= this.data.computeTxHash();
    return this.#txHash;
  }

  /** Whether the hash is known without computing it (claimed by the sender, or computed already). */
  get hasKnownHash(): boolean {
    return this.#txHash !== undefined;
  }

  /**
   * A hash another thread computed from this tx's data (a public execution worker: hashing a tx with public
   * calls is the costly part of validating it); kept only when the tx has no hash yet.
   */
  adoptComputedHash(hash: TxHash): void {
    this.#txHash ??= hash;
  }

  /** This tx without a claimed hash: its `txHash` is then computed from `data` on first use. */
  withoutClaimedHash(): Tx {
    return Tx.#decoded(
      new Tx(this.data, this.chonkProof, this.contractClassLogFields, this.publicFunctionCalldata),
      this.getDataBuffer(),
    );
  }

  getTxHash(): TxHash {
    return this.txHash;
  }

  /** Always recomputes the hash from `data` (for checking a claimed hash). */
  computeTxHash(): TxHash {
    return this.data.computeTxHash();
  }

  get gasSettings(): GasSettings {
    return this.data.constants.txContext.gasSettings;
  }

  hasPublicCalls(): boolean {
    return this.data.numberOfPublicCallRequests() > 0;
  }

  /** The contract class logs, pairing each committed log hash with the payload sent beside it. */
  getContractClassLogs(): ContractClassLog[] {
    return this.data.getNonEmptyContractClassLogsHashes().flatMap((h, i) => {
      const fields = this.contractClassLogFields[i];
      return fields ? [new ContractClassLog(h.contractAddress, fields, h.length)] : [];
    });
  }

  getDataBuffer(): Buffer {
    this.#dataBytes ??= this.data.toBuffer();
    return this.#dataBytes;
  }

  /** Size of the binary form, computed without serialising. */
  getSize(): number {
    let n = 32 + this.data.getSize() + ChonkProof.SIZE_IN_BYTES + 2;
    n += this.contractClassLogFields.length * ContractClassLogFields.SIZE_IN_BYTES;
    for (const c of this.publicFunctionCalldata) n += c.getSize();
    return n;
  }

  toBuffer(): Buffer {
    return this.encode(this.txHash.value);
  }

  /**
   * The binary form for another thread, without computing the hash: its slot is zero when the hash is not known
   * yet (see hasKnownHash; the receiver then reads it with withoutClaimedHash).
   */
  toBufferForTransfer(): Buffer {
    return this.encode(this.#txHash?.value ?? 0n);
  }

  private encode(txHash: bigint): Buffer {
    const w = new BufferWriter(this.getSize());
    w.writeField(txHash);
    w.writeBytes(this.getDataBuffer());
    this.chonkProof.write(w);
    w.writeU8(this.contractClassLogFields.length);
    for (const c of this.contractClassLogFields) c.write(w);
    w.writeU8(this.publicFunctionCalldata.length);
    for (const c of this.publicFunctionCalldata) c.write(w);
    return w.toBuffer();
  }

  /** Reads the binary form; the hash it carries is kept as the claimed hash. */
  static fromBuffer(buf: Uint8Array, name = 'tx'): Tx {
    const r = new BufferReader(buf);
    const tx = Tx.read(r, name);
    r.assertEnd(name);
    return tx;
  }

  /** Reads one tx from a reader positioned at it (a tx inside a list: req/resp and proposals carry several). */
  static read(r: BufferReader, name = 'tx'): Tx {
    const claimed = new TxHash(readField32(r.readBytes(32, name, 'txHash')));
    const dataStart = r.offset;
    const data = PrivateKernelTailCircuitPublicInputs.read(r, joinPath(name, 'data'));
    const dataBytes = Buffer.from(r.buffer.subarray(dataStart, r.offset));
    const proof = ChonkProof.read(r, joinPath(name, 'chonkProof'));
    const nLogs = r.readU8(name, 'contractClassLogFields');
    const logsPath = joinPath(name, 'contractClassLogFields');
    const logs = new Array<ContractClassLogFields>(nLogs);
    for (let i = 0; i < nLogs; i++) logs[i] = ContractClassLogFields.read(r, logsPath, i);
    const nCalls = r.readU8(name, 'publicFunctionCalldata');
    const callsPath = joinPath(name, 'publicFunctionCalldata');
    const calls = new Array<HashedValues>(nCalls);
    for (let i = 0; i < nCalls; i++) calls[i] = HashedValues.read(r, callsPath, i);
    return Tx.#decoded(new Tx(data, proof, logs, calls, claimed), dataBytes);
  }

  toJSON(): TxJson {
    return {
      txHash: this.txHash.toString(),
      data: this.getDataBuffer().toString('base64'),
      chonkProof: this.chonkProof.toJSON(),
      contractClassLogFields: this.contractClassLogFields.map((c) => c.toJSON()),
      publicFunctionCalldata: this.publicFunctionCalldata.map((c) => c.toJSON()),
    };
  }

  /** Reads the wire form. A `txHash` key is ignored (the hash is recomputed), as are other stray keys. */
  static fromJSON(json: unknown, path = 'tx'): Tx {
    const o = readObject(json, path);
    const dataBytes = readBuffer(o.data, path, 'data');
    const data = PrivateKernelTailCircuitPublicInputs.fromBuffer(dataBytes, joinPath(path, 'data'));
    const chonkProof = ChonkProof.fromBuffer(
      readBuffer(o.chonkProof, path, 'chonkProof'),
      joinPath(path, 'chonkProof'),
    );
    const logsPath = joinPath(path, 'contractClassLogFields');
    const logs = readArray(o.contractClassLogFields, path, 'contractClassLogFields', MAX_LIST).map((x, i) =>
      ContractClassLogFields.fromJSON(x, joinPath(logsPath, i)),
    );
    const callsPath = joinPath(path, 'publicFunctionCalldata');
    const calls = readArray(o.publicFunctionCalldata, path, 'publicFunctionCalldata', MAX_LIST).map((x, i) =>
      HashedValues.fromJSON(x, joinPath(callsPath, i)),
    );
    return Tx.#decoded(new Tx(data, chonkProof, logs, calls), dataBytes);
  }
}
