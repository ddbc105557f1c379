import type { AvmContractClass, AvmContractInstance, AvmContractSource } from '../../core/avm/index.js';
import type { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import { ContractClassPublishedEvent } from '../../core/contract/contract-class-published-event.js';
import { ContractInstancePublishedEvent } from '../../core/contract/contract-instance-published-event.js';
import type { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import type { ContractClassLog } from '../../core/logs/contract-class-log.js';
import type { PrivateLog } from '../../core/logs/private-log.js';

/** Where published contracts come from: the chain store (protocol contracts included, upgrades applied). */
export interface PublishedContracts {
  getContractInstanceAt(address: bigint, timestamp: bigint): ContractInstanceWithAddress | undefined;
  getContractClass(classId: bigint): ContractClassPublic | undefined;
  /** The function name registered for a selector (4.1.2 keeps names by selector only), if any. */
  getFunctionName(selector: number): string | undefined;
}

interface Layer {
  readonly instances: Map<bigint, AvmContractInstance>;
  readonly classes: Map<bigint, AvmContractClass>;
}

/**
 * The AVM's contract source for one tx: the published contracts, plus the contracts the tx itself deploys (class
 * publications in its contract class logs, instance publications in its private logs), which its later calls can
 * already use. The tx's own deployments sit in checkpointed layers, so the processor drops the revertible ones
 * together with app logic, as 4.1.2's PublicContractsDB does.
 */
export class TxContractSource implements AvmContractSource {
  private readonly layers: Layer[] = [{ instances: new Map(), classes: new Map() }];
  /** Published instances (by address, at the tx's one timestamp) and classes in the AVM's form, once per tx. */
  private readonly publishedInstances = new Map<bigint, AvmContractInstance | undefined>();
  private readonly publishedClasses = new Map<bigint, AvmContractClass | undefined>();
  private publishedTimestamp: bigint | undefined;

  constructor(private readonly published: PublishedContracts) {}

  /** Adds the deployments announced by a phase's logs (events that do not decode are not deployments). */
  addDeployments(classLogs: readonly ContractClassLog[], privateLogs: readonly PrivateLog[]): void {
    const top = this.top();
    for (const event of ContractClassPublishedEvent.extractContractClassEvents(classLogs)) {
      const cls = event.toContractClassPublic();
      top.classes.set(cls.id.value, { id: cls.id.value, packedBytecode: cls.packedBytecode });
    }
    for (const event of ContractInstancePublishedEvent.extractContractInstanceEvents(privateLogs)) {
      top.instances.set(event.address.value, toAvmInstance(event.toContractInstance()));
    }
  }

  checkpoint(): void {
    const top = this.top();
    this.layers.push({ instances: new Map(top.instances), classes: new Map(top.classes) });
  }

  commitCheckpoint(): void {
    const top = this.pop();
    this.layers[this.layers.length - 1] = top;
  }

  revertCheckpoint(): void {
    this.pop();
  }

  getContractInstance(address: bigint, timestamp: bigint): AvmContractInstance | undefined {
    const own = this.top().instances.get(address);
    if (own) return own;
    if (timestamp !== this.publishedTimestamp) {
      this.publishedInstances.clear();
      this.publishedTimestamp = timestamp;
    } else if (this.publishedInstances.has(address)) {
      return this.publishedInstances.get(address);
    }
    const published = this.published.getContractInstanceAt(address, timestamp);
    const instance = published && toAvmInstance(published);
    this.publishedInstances.set(address, instance);
    return instance;
  }

  getContractClass(classId: bigint): AvmContractClass | undefined {
    const own = this.top().classes.get(classId);
    if (own) return own;
    if (this.publishedClasses.has(classId)) return this.publishedClasses.get(classId);
    const published = this.published.getContractClass(classId);
    const cls = published && { id: classId, packedBytecode: published.packedBytecode };
    this.publishedClasses.set(classId, cls);
    return cls;
  }

  getDebugFunctionName(_address: bigint, selector: number): string | undefined {
    return this.published.getFunctionName(selector);
  }

  private top(): Layer {
    return this.layers[this.layers.length - 1] as Layer;
  }

  private pop(): Layer {
    if (this.layers.length < 2) throw new Error('TxContractSource: no checkpoint to close');
    return this.layers.pop() as Layer;
  }
}

function toAvmInstance(i: ContractInstanceWithAddress): AvmContractInstance {
  return {
    address: i.address.value,
    deployer: i.deployer.value,
    originalContractClassId: i.originalContractClassId.value,
    currentContractClassId: i.currentContractClassId.value,
    initializationHash: i.initializationHash.value,
  };
}
