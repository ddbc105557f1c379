import type { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import { ContractClassPublishedEvent } from '../../core/contract/contract-class-published-event.js';
import { ContractInstancePublishedEvent } from '../../core/contract/contract-instance-published-event.js';
import type { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import type { TxEffect } from '../../core/tx/tx-effect.js';
import type { PublishedContracts } from './tx-contract-source.js';

/**
 * The contracts a block being built can call: the published ones, plus those its earlier txs deployed (4.1.2's
 * public processor keeps one contracts DB for the whole block, so tx 2 can call what tx 1 published). What a tx
 * deployed is read from its effect, which holds exactly the publications that survived its reverts.
 */
export class BlockContracts implements PublishedContracts {
  private readonly instances = new Map<bigint, ContractInstanceWithAddress>();
  private readonly classes = new Map<bigint, ContractClassPublic>();
  /**
   * What the published contracts answered, kept for the block: the store does not change while a block is built
   * (building is synchronous, and the block is stored only once built), and every call of every tx looks up the
   * instance and class it enters. Instances are kept with the timestamp they were asked at (upgrades depend on it).
   */
  private readonly publishedInstances = new Map<
    bigint,
    { timestamp: bigint; instance: ContractInstanceWithAddress | undefined }
  >();
  private readonly publishedClasses = new Map<bigint, ContractClassPublic | undefined>();

  constructor(private readonly published: PublishedContracts) {}

  /** Records what an included tx published. A publication that does not decode is not a deployment. */
  addTxEffect(effect: TxEffect): void {
    for (const log of effect.contractClassLogs) {
      if (!ContractClassPublishedEvent.isContractClassPublishedEvent(log)) continue;
      try {
        const cls = ContractClassPublishedEvent.fromLog(log).toContractClassPublic();
        this.classes.set(cls.id.value, cls);
      } catch {
        // The chain store ignores it too (with a warning) when the block is applied.
      }
    }
    for (const log of effect.privateLogs) {
      if (!ContractInstancePublishedEvent.isContractInstancePublishedEvent(log)) continue;
      try {
        const instance = ContractInstancePublishedEvent.fromLog(log).toContractInstance();
        this.instances.set(instance.address.value, instance);
      } catch {
        // As above.
      }
    }
  }

  getContractInstanceAt(address: bigint, timestamp: bigint): ContractInstanceWithAddress | undefined {
    const own = this.instances.get(address);
    if (own) return own;
    const known = this.publishedInstances.get(address);
    if (known && known.timestamp === timestamp) return known.instance;
    const instance = this.published.getContractInstanceAt(address, timestamp);
    this.publishedInstances.set(address, { timestamp, instance });
    return instance;
  }

  getContractClass(classId: bigint): ContractClassPublic | undefined {
    const own = this.classes.get(classId);
    if (own) return own;
    if (this.publishedClasses.has(classId)) return this.publishedClasses.get(classId);
    const cls = this.published.getContractClass(classId);
    this.publishedClasses.set(classId, cls);
    return cls;
  }

  getFunctionName(selector: number): string | undefined {
    return this.published.getFunctionName(selector);
  }
}
