/**
 * World state and contract code held in plain maps: the AVM's reader and contract source for tests, the
 * differential harness and benchmarks. The daemon uses its SQLite world-state fork instead.
 */
import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS } from '../constants.js';
import { computePublicDataTreeLeafSlot, siloNullifier } from '../hash/siloing.js';
import type { AvmContractClass, AvmContractInstance, AvmContractSource, AvmWorldStateReader } from './avm-world.js';
import { isProtocolContractAddress } from './journal.js';

export interface InMemoryAvmWorldOptions {
  /**
   * Nullifiers 0..n-1 present from the start. An indexed tree always holds its zero leaf, so nullifier 0 exists
   * (default n = 1); a chain's genesis prefills GENESIS_NULLIFIER_LEAVES (128) of them.
   */
  prefilledNullifiers?: number;
}

export class InMemoryAvmWorld implements AvmWorldStateReader, AvmContractSource {
  readonly publicData = new Map<bigint, bigint>();
  readonly nullifiers = new Set<bigint>();
  readonly noteHashes: bigint[] = [];
  readonly l1ToL2Messages: bigint[] = [];
  readonly instances = new Map<bigint, AvmContractInstance>();
  readonly classes = new Map<bigint, AvmContractClass>();
  readonly functionNames = new Map<string, string>();

  constructor(options: InMemoryAvmWorldOptions = {}) {
    const prefilled = options.prefilledNullifiers ?? 1;
    for (let i = 0; i < prefilled; i++) this.nullifiers.add(BigInt(i));
  }

  // --- AvmWorldStateReader ---

  getPublicData(leafSlot: bigint): bigint {
    return this.publicData.get(leafSlot) ?? 0n;
  }

  nullifierExists(siloedNullifier: bigint): boolean {
    return this.nullifiers.has(siloedNullifier);
  }

  getNoteHashTreeSize(): bigint {
    return BigInt(this.noteHashes.length);
  }

  getNoteHashLeaf(index: bigint): bigint | undefined {
    return index < BigInt(this.noteHashes.length) ? this.noteHashes[Number(index)] : undefined;
  }

  getL1ToL2MessageLeaf(index: bigint): bigint | undefined {
    return index < BigInt(this.l1ToL2Messages.length) ? this.l1ToL2Messages[Number(index)] : undefined;
  }

  // --- AvmContractSource ---

  getContractInstance(address: bigint, _timestamp: bigint): AvmContractInstance | undefined {
    return this.instances.get(address);
  }

  getContractClass(classId: bigint): AvmContractClass | undefined {
    return this.classes.get(classId);
  }

  getDebugFunctionName(address: bigint, selector: number): string | undefined {
    return this.functionNames.get(`${address}:${selector}`);
  }

  // --- setup helpers ---

  /** Writes a contract's storage slot, as a previous block would have. */
  setStorage(contractAddress: bigint, slot: bigint, value: bigint): void {
    this.publicData.set(computePublicDataTreeLeafSlot(contractAddress, slot), value);
  }

  /** Reads a contract's storage slot. */
  getStorage(contractAddress: bigint, slot: bigint): bigint {
    return this.getPublicData(computePublicDataTreeLeafSlot(contractAddress, slot));
  }

  addClass(id: bigint, packedBytecode: Uint8Array): void {
    this.classes.set(id, { id, packedBytecode });
  }

  /**
   * Deploys an instance. Outside the protocol addresses this also inserts the deployment nullifier the instance
   * registry emits, because the AVM checks that an instance it is given agrees with the nullifier tree.
   */
  addInstance(
    instance: Omit<AvmContractInstance, 'currentContractClassId'> & { currentContractClassId?: bigint },
  ): void {
    const full: AvmContractInstance = {
      ...instance,
      currentContractClassId: instance.currentContractClassId ?? instance.originalContractClassId,
    };
    this.instances.set(full.address, full);
    if (!isProtocolContractAddress(full.address)) {
      this.nullifiers.add(siloNullifier(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, full.address));
    }
  }

  /** Shorthand: a class and one instance of it at `address` (deployer 0, init hash 0 unless given). */
  deploy(address: bigint, classId: bigint, packedBytecode: Uint8Array, deployer = 0n, initializationHash = 0n): void {
    this.addClass(classId, packedBytecode);
    this.addInstance({ address, deployer, originalContractClassId: classId, initializationHash });
  }

  setFunctionName(address: bigint, selector: number, name: string): void {
    this.functionNames.set(`${address}:${selector}`, name);
  }
}
