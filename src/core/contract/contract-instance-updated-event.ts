import { AztecAddress } from '../aztec-address.js';
import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS } from '../constants.js';
import type { PublicLog } from '../logs/public-log.js';

/** First field of the public log the instance registry emits when an upgrade is scheduled (4.1.2 constant). */
export const CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE =
  20721543224513346060908370400407150739273836456436647488068002302723900469047n;

/** Magic value, address, previous class id, new class id, timestamp of change. */
const EVENT_LENGTH = 5;

/**
 * An upgrade scheduled through the instance registry (address 2): from `timestampOfChange` on, the instance at
 * `address` runs `newContractClassId`; before it, `prevContractClassId` (0 meaning the original class). 4.1.2
 * protocol-contracts instance-registry/contract_instance_updated_event.ts; the archiver indexes it from the
 * registry's public logs.
 */
export class ContractInstanceUpdatedEvent {
  constructor(
    readonly address: AztecAddress,
    readonly prevContractClassId: bigint,
    readonly newContractClassId: bigint,
    readonly timestampOfChange: bigint,
  ) {}

  static isContractInstanceUpdatedEvent(log: PublicLog): boolean {
    return (
      log.contractAddress.value === CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS &&
      log.fields[0]?.value === CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE
    );
  }

  /** Reads the event from a log (check isContractInstanceUpdatedEvent first). */
  static fromLog(log: PublicLog): ContractInstanceUpdatedEvent {
    if (log.fields.length < EVENT_LENGTH) {
      throw new Error(`A contract instance update log has ${EVENT_LENGTH} fields, got ${log.fields.length}`);
    }
    const f = log.fields.map((x) => x.value);
    const timestampOfChange = f[4] as bigint;
    // The registry packs it into 32 bits of its delayed storage, so anything larger is not a real update.
    if (timestampOfChange > 0xffffffffn) {
      throw new Error(`Contract instance update timestamp ${timestampOfChange} does not fit in 32 bits`);
    }
    return new ContractInstanceUpdatedEvent(
      new AztecAddress(f[1] as bigint),
      f[2] as bigint,
      f[3] as bigint,
      timestampOfChange,
    );
  }
}
