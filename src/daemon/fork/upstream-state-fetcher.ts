import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS } from '../../core/constants.js';
import { computeContractAddressFromInstance } from '../../core/contract/contract-address.js';
import { computeContractClassId, computePublicBytecodeCommitment } from '../../core/contract/contract-class-id.js';
import type { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import type { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import { siloNullifier } from '../../core/hash/siloing.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { ChainStore } from '../store/chain-store.js';
import type { IndexedLeafPreimage } from '../world-state/indexed-leaf.js';
import { MerkleTreeId, TREES, treeInfo } from '../world-state/merkle-tree-id.js';
import type { WorldState } from '../world-state/world-state.js';
import {
  type UpstreamStateNeed,
  UpstreamStateNeededError,
  UpstreamWitnessRejectedError,
} from '../world-state/world-state-errors.js';

/** An indexed tree's low leaf as a witness method answers it (node_getPublicDataWitness and the nullifier one). */
export interface UpstreamLowLeaf {
  readonly index: bigint;
  readonly preimage: IndexedLeafPreimage;
  readonly siblingPath: readonly bigint[];
}

/** The witness methods of the upstream a lazy fork reads, at the fork's block. */
export interface UpstreamWitnessSource {
  /** Where it is, for errors. */
  readonly url: string;
  /** The siblings of leaf `index` (any index of the tree, the one at its size included), leaf level first. */
  siblingPath(tree: MerkleTreeId, block: number, index: bigint): Promise<readonly bigint[]>;
  /** The low leaf of `key` (the leaf holding it, or the one with the largest key below it). */
  lowLeaf(tree: MerkleTreeId, block: number, key: bigint): Promise<UpstreamLowLeaf | undefined>;
  /** Where a value (a key, for indexed trees) is and the block that inserted it; undefined when not there. */
  findLeaf(
    tree: MerkleTreeId,
    block: number,
    value: bigint,
  ): Promise<{ index: bigint; blockNumber: number } | undefined>;
  /** A contract instance as the upstream serves it now (node_getContract); undefined when it has none. */
  contract?(address: bigint): Promise<ContractInstanceWithAddress | undefined>;
  /** A contract class (node_getContractClass); undefined when it has none. */
  contractClass?(id: bigint): Promise<ContractClassPublic | undefined>;
}

/** The upstream cannot give what a lazy fork needs: the message says what and why. */
export class UpstreamStateUnavailableError extends Error {
  override name = 'UpstreamStateUnavailableError';
}

/** Fetches a lazy run may make before it gives up (each brings one witness; a block touches a few per tx). */
const MAX_FETCHES_PER_RUN = 4096;

/**
 * Fills a lazily forked world state (WorldState.openSparse) from its upstream: the trees' frontiers before the
 * first local block, then whatever a read or a block finds missing (UpstreamStateNeededError names it), fetched
 * through the upstream's witness methods at the fork's block. Every witness is checked against the upstream's
 * root there before it is kept (WorldState.addUpstreamPath), and kept in the database, so it is fetched once.
 * The number of calls made is counted (`calls`), for the log and the benchmark.
 */
export class UpstreamStateFetcher {
  /** Witness calls made to the upstream so far. */
  calls = 0;

  constructor(
    private readonly ws: WorldState,
    private readonly source: UpstreamWitnessSource,
    /** Where a lazy fork keeps the contracts it fetches (the chain store); without it none are fetched. */
    private readonly store?: ChainStore,
  ) {}

  private get block(): number {
    const b = this.ws.sparseBlock;
    if (b === undefined) throw new UpstreamStateUnavailableError('the world state is not a lazy fork');
    return b;
  }

  /**
   * The path of the (empty) leaf at each tree's size at the fork's block: the left siblings every append needs.
   * One call per tree, made in parallel.
   */
  async fetchFrontiers(): Promise<void> {
    const block = this.block;
    await Promise.all(
      TREES.map(async (info) => {
        const size = Number(this.ws.getTreeInfo(block, info.id).size);
        const path = await this.ask(`the path of ${info.name} leaf ${size}`, () =>
          this.source.siblingPath(info.id, block, BigInt(size)),
        );
        try {
          this.ws.addUpstreamPath({ tree: info.id, index: size, siblingPath: path.map(bigIntToBuffer32) });
        } catch (err) {
          if (!(err instanceof UpstreamWitnessRejectedError)) throw err;
          throw new UpstreamStateUnavailableError(
            info.id === MerkleTreeId.L1_TO_L2_MESSAGE_TREE
              ? `cannot fork ${this.source.url} lazily: its L1-to-L2 message tree holds messages, and no node serves ` +
                  "that tree's sibling paths (the frontier a lazy fork appends on)"
              : `${this.source.url} gave a frontier of ${info.name} that does not prove its root: ${err.message}`,
          );
        }
      }),
    );
  }

  /** Fetches the upstream's low leaves of these keys of an indexed tree (before a block inserts or reads them). */
  async fetchLowLeaves(tree: MerkleTreeId, keys: readonly bigint[]): Promise<void> {
    await Promise.all(keys.map((key) => this.fetch({ kind: 'low-leaf', tree, key })));
  }

  /**
   * Runs a world-state read or block (or an RPC read made of them) until it no longer needs anything from the
   * upstream: each UpstreamStateNeededError is fetched, then `fn` runs again from the start (it must have no
   * effect when it throws, as a world-state fork dropped unused has none).
   */
  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    const seen = new Set<string>();
    for (let fetches = 0; ; fetches++) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof UpstreamStateNeededError)) throw err;
        const key = JSON.stringify(err.need, (_, v) => (typeof v === 'bigint' ? v.toString(16) : v));
        if (seen.has(key)) {
          throw new UpstreamStateUnavailableError(
            `${this.source.url} answered, but the fork still lacks what it asked for (${err.message})`,
          );
        }
        if (fetches >= MAX_FETCHES_PER_RUN) {
          throw new UpstreamStateUnavailableError(
            `one read needed more than ${MAX_FETCHES_PER_RUN} witnesses from ${this.source.url}`,
          );
        }
        seen.add(key);
        await this.fetch(err.need);
      }
    }
  }

  /** Fetches one missing piece. */
  async fetch(need: UpstreamStateNeed): Promise<void> {
    if (need.kind === 'contract' || need.kind === 'class') return this.fetchContract(need);
    const block = this.block;
    const info = treeInfo(need.tree as MerkleTreeId);
    switch (need.kind) {
      case 'low-leaf': {
        const w = await this.ask(`the low leaf of 0x${need.key.toString(16)} in ${info.name}`, () =>
          this.source.lowLeaf(info.id, block, need.key),
        );
        if (!w) throw new UpstreamStateUnavailableError(`${this.source.url} has no low leaf in ${info.name}`);
        this.ws.addUpstreamPath({
          tree: info.id,
          index: Number(w.index),
          preimage: {
            key: bigIntToBuffer32(w.preimage.key),
            value: bigIntToBuffer32(w.preimage.value),
            nextKey: bigIntToBuffer32(w.preimage.nextKey),
            nextIndex: Number(w.preimage.nextIndex),
          },
          siblingPath: w.siblingPath.map(bigIntToBuffer32),
        });
        return;
      }
      case 'node': {
        // The node is on the path of the first leaf under it; that leaf's value (or leaf hash) is the first
        // sibling of its neighbour's path, so both paths are fetched and kept.
        const leaf = BigInt(need.index) << BigInt(need.level);
        const what = (i: bigint) => `the path of ${info.name} leaf ${i}`;
        const [mine, theirs] = await Promise.all([
          this.ask(what(leaf), () => this.source.siblingPath(info.id, block, leaf)),
          this.ask(what(leaf ^ 1n), () => this.source.siblingPath(info.id, block, leaf ^ 1n)),
        ]);
        const add = (index: bigint, path: readonly bigint[], value: bigint | undefined) =>
          this.ws.addUpstreamPath({
            tree: info.id,
            index: Number(index),
            value: bigIntToBuffer32(value ?? 0n),
            siblingPath: path.map(bigIntToBuffer32),
          });
        add(leaf, mine, theirs[0]);
        add(leaf ^ 1n, theirs, mine[0]);
        return;
      }
      case 'leaf':
        throw new UpstreamStateUnavailableError(
          `${info.name} leaf ${need.index} is the upstream's, and no witness method gives a leaf's preimage by its index`,
        );
      case 'find': {
        const found = await this.ask(`where ${info.name} holds 0x${need.value.toString(16)}`, () =>
          this.source.findLeaf(info.id, block, need.value),
        );
        this.ws.addUpstreamLeafLocation(info.id, need.value, found);
        return;
      }
    }
  }

  /**
   * A contract instance or class published on the upstream before the fork, kept in the chain store once its
   * address (or class id) is checked to be what it commits to, and an instance to be deployed at the fork's block;
   * one the upstream does not have (then) is remembered as absent. Kept as of the fork's block, so a revert to any block of the fork keeps it.
   */
  private async fetchContract(
    need: { kind: 'contract'; address: bigint } | { kind: 'class'; id: bigint },
  ): Promise<void> {
    const { store, source } = this;
    const block = this.block;
    if (!store || !source.contract || !source.contractClass) {
      throw new UpstreamStateUnavailableError(`this fork cannot fetch contracts from ${source.url}`);
    }
    const hex = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;
    if (need.kind === 'contract') {
      const getContract = source.contract.bind(source);
      const instance = await this.ask(`the contract instance at ${hex(need.address)}`, () => getContract(need.address));
      if (!instance) return store.markAbsentUpstream(need);
      if (
        instance.address.value !== need.address ||
        computeContractAddressFromInstance(instance).value !== need.address
      ) {
        throw new UpstreamStateUnavailableError(
          `${source.url} gave a contract instance for ${hex(need.address)} that is not at that address`,
        );
      }
      // The upstream answers as of its latest block: an instance it published after the fork's block is not
      // the fork's (its deployment nullifier is not in the fork's nullifier tree at that block).
      const deployment = siloNullifier(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, need.address);
      if (!(await this.run(() => this.ws.view(block).hasNullifier(deployment)))) return store.markAbsentUpstream(need);
      store.db.transaction(() => store.contractInstances.insert(instance, block))();
      return;
    }
    const getClass = source.contractClass.bind(source);
    const cls = await this.ask(`the contract class ${hex(need.id)}`, () => getClass(need.id));
    if (!cls) return store.markAbsentUpstream(need);
    const id = computeContractClassId(
      cls.artifactHash.value,
      cls.privateFunctionsRoot.value,
      computePublicBytecodeCommitment(cls.packedBytecode),
    );
    if (id !== need.id || cls.id.value !== need.id) {
      throw new UpstreamStateUnavailableError(
        `${source.url} gave a contract class for ${hex(need.id)} whose contents hash to another id`,
      );
    }
    store.db.transaction(() => store.contractClasses.insert(cls, block))();
  }

  /** One upstream call, counted; a failure names the upstream and what was asked. */
  private async ask<T>(what: string, call: () => Promise<T>): Promise<T> {
    this.calls++;
    try {
      return await call();
    } catch (err) {
      throw new UpstreamStateUnavailableError(`${this.source.url} did not give ${what}: ${(err as Error).message}`);
    }
  }
}
