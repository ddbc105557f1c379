import { AztecAddress } from '../aztec-address.js';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS } from '../constants.js';
import { Fr } from '../fr.js';
import { ContractClassLog } from '../logs/contract-class-log.js';
import { ContractClassLogFields } from '../logs/contract-class-log-fields.js';
import {
  bufferAsFields,
  bufferFromFields,
  computeContractClassId,
  computePublicBytecodeCommitment,
} from './contract-class-id.js';
import { ContractClassPublic } from './contract-class-public.js';

/** First field of a class registry log announcing a new class (4.1.2 CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE). */
export const CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE =
  14907836659448373306373608164128296596488873008270905914742877230397948162628n;

/** Fields before the bytecode: magic, class id, version, artifact hash, private functions root. */
const HEADER_FIELDS = 5;

/**
 * The event the class registry (address 3) emits, as a contract class log, when a class is published
 * (4.1.2 protocol-contracts class-registry/contract_class_published_event.ts). Log fields: magic value,
 * class id, version, artifact hash, private functions root, then the packed public bytecode as
 * bufferAsFields (byte length, 31-byte chunks).
 */
export class ContractClassPublishedEvent {
  constructor(
    readonly contractClassId: Fr,
    readonly version: number,
    readonly artifactHash: Fr,
    readonly privateFunctionsRoot: Fr,
    readonly packedPublicBytecode: Buffer,
  ) {}

  /** The event for a class, with its id computed from the parts. */
  static create(artifactHash: Fr, privateFunctionsRoot: Fr, packedPublicBytecode: Buffer): ContractClassPublishedEvent {
    const id = computeContractClassId(
      artifactHash.value,
      privateFunctionsRoot.value,
      computePublicBytecodeCommitment(packedPublicBytecode),
    );
    return new ContractClassPublishedEvent(new Fr(id), 1, artifactHash, privateFunctionsRoot, packedPublicBytecode);
  }

  static isContractClassPublishedEvent(log: ContractClassLog): boolean {
    return (
      log.contractAddress.value === CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS &&
      (log.fields.fields[0] as Fr).value === CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE
    );
  }

  /** Reads the event from a log (check isContractClassPublishedEvent first). Throws on a malformed log. */
  static fromLog(log: ContractClassLog): ContractClassPublishedEvent {
    const f = log.fields.fields.map((x) => x.value);
    const version = f[2] as bigint;
    if (version > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`Contract class version ${version} is too large`);
    return new ContractClassPublishedEvent(
      new Fr(f[1] as bigint),
      Number(version),
      new Fr(f[3] as bigint),
      new Fr(f[4] as bigint),
      bufferFromFields(f.slice(HEADER_FIELDS)),
    );
  }

  /** The class, after checking the announced id against its parts (throws if it does not match). */
  toContractClassPublic(): ContractClassPublic {
    const computed = computeContractClassId(
      this.artifactHash.value,
      this.privateFunctionsRoot.value,
      computePublicBytecodeCommitment(this.packedPublicBytecode),
    );
    if (computed !== this.contractClassId.value) {
      throw new Error(
        `Invalid contract class id: computed ${new Fr(computed)} but the event announced ${this.contractClassId}`,
      );
    }
    if (this.version !== 1) throw new Error(`Unexpected contract class version ${this.version}`);
    return new ContractClassPublic(
      this.contractClassId,
      this.artifactHash,
      this.packedPublicBytecode,
      this.privateFunctionsRoot,
    );
  }

  /** The log the registry emits for this event (what a tx publishing the class carries). */
  toLog(): ContractClassLog {
    const emitted = [
      CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE,
      this.contractClassId.value,
      BigInt(this.version),
      this.artifactHash.value,
      this.privateFunctionsRoot.value,
      ...bufferAsFields(this.packedPublicBytecode),
    ];
    if (emitted.length > CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(
        `The bytecode needs ${emitted.length} log fields, a class log holds ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS}`,
      );
    }
    return new ContractClassLog(
      new AztecAddress(CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS),
      ContractClassLogFields.fromEmitted(emitted.map((v) => (v === 0n ? Fr.ZERO : new Fr(v)))),
      emitted.length,
    );
  }

  static extractContractClassEvents(logs: readonly ContractClassLog[]): ContractClassPublishedEvent[] {
    return logs
      .filter((l) => ContractClassPublishedEvent.isContractClassPublishedEvent(l))
      .map((l) => ContractClassPublishedEvent.fromLog(l));
  }
}
