import { AztecAddress } from '../aztec-address.js';
import { FR_MODULUS, Fr } from '../fr.js';
import { PrivateLog } from '../logs/private-log.js';
import { ContractInstanceWithAddress } from './contract-instance-with-address.js';
import type { GrumpkinPoint } from './grumpkin.js';
import { PublicKeys } from './public-keys.js';

/**
 * First field of the private log the instance registry (address 2) emits when an instance is published
 * (4.1.2 protocol-contracts CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG, already siloed).
 */
export const CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG =
  0x1a7e1badb79abdd38c684b3c8306ffe7ecb33c69e3380d9855730aaaa83a21a8n;

/** Tag plus the 14 fields of the event. */
const EMITTED_LENGTH = 15;

/**
 * The event announcing a deployed instance (4.1.2 protocol-contracts
 * instance-registry/contract_instance_published_event.ts). Private log fields: tag, address, version, salt,
 * class id, initialization hash, the four public keys (x, y each), deployer.
 */
export class ContractInstancePublishedEvent {
  constructor(
    readonly address: AztecAddress,
    readonly version: number,
    readonly salt: Fr,
    readonly contractClassId: Fr,
    readonly initializationHash: Fr,
    readonly publicKeys: PublicKeys,
    readonly deployer: AztecAddress,
  ) {}

  static isContractInstancePublishedEvent(log: PrivateLog): boolean {
    return (log.fields[0] as Fr).value === CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG;
  }

  /** Reads the event from a log (check isContractInstancePublishedEvent first). */
  static fromLog(log: PrivateLog): ContractInstancePublishedEvent {
    const f = log.fields.map((x) => x.value);
    const at = (i: number) => f[i] as bigint;
    const point = (i: number): GrumpkinPoint => ({ x: at(i), y: at(i + 1), isInfinite: false });
    if (at(2) > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`Contract instance version ${at(2)} is too large`);
    return new ContractInstancePublishedEvent(
      new AztecAddress(at(1)),
      Number(at(2)),
      new Fr(at(3)),
      new Fr(at(4)),
      new Fr(at(5)),
      new PublicKeys(point(6), point(8), point(10), point(12)),
      new AztecAddress(at(14)),
    );
  }

  /** The instance, as the archiver stores it (throws for an unknown version, as 4.1.2 does). */
  toContractInstance(): ContractInstanceWithAddress {
    if (this.version !== 1) throw new Error(`Unexpected contract instance version ${this.version}`);
    return new ContractInstanceWithAddress(
      this.salt,
      this.deployer,
      this.contractClassId,
      this.contractClassId,
      this.initializationHash,
      this.publicKeys,
      this.address,
    );
  }

  /** The private log the registry emits for this event. */
  toLog(): PrivateLog {
    const k = this.publicKeys.points;
    const values = [
      CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG,
      this.address.value,
      BigInt(this.version),
      this.salt.value,
      this.contractClassId.value,
      this.initializationHash.value,
      ...k.flatMap((p) => [p.x, p.y]),
      this.deployer.value,
    ];
    if (values.length !== EMITTED_LENGTH) throw new Error('Instance event layout mismatch');
    for (const v of values) if (v >= FR_MODULUS) throw new RangeError('An instance event field is not a field element');
    return PrivateLog.fromEmitted(values.map((v) => (v === 0n ? Fr.ZERO : new Fr(v))));
  }

  static extractContractInstanceEvents(logs: readonly PrivateLog[]): ContractInstancePublishedEvent[] {
    return logs
      .filter((l) => ContractInstancePublishedEvent.isContractInstancePublishedEvent(l))
      .map((l) => ContractInstancePublishedEvent.fromLog(l));
  }
}
