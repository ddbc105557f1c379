import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS } from '../../core/constants.js';
import { computeContractAddressFromInstance } from '../../core/contract/contract-address.js';
import { computeContractClassId, computePublicBytecodeCommitment } from '../../core/contract/contract-class-id.js';
import type { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import type { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import { siloNullifier } from '../../core/hash/siloing.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { IndexedLeafPreimage } from '../../rpc/methods/trees.js';
import type { ChainStore } from '../store/chain-store.js';
import { MerkleTreeId, TREES, treeInfo } from '../world-state/merkle-tree-id.js';
import type { WorldState } from '../world-state/world-state.js';
import {
  type UpstreamStateNeed,
  UpstreamStateNeededError,
  UpstreamWitnessRejectedError,
} from '../world-state/world-state-errors.js';
import {
  archivePathAfter,
  emptyTreePath,
  indexedLeafHash,
  pathBuffers,
  pathPastLastLeaf,
  type UpstreamBlockEffects,
} from './upstream-frontier.js';

/** An indexed tree's low leaf as a witness method answers it (node_getPublicDataWitness and the nullifier one). */
export interface UpstreamLowLeaf {
  readonly index: bigint;
  readonly preimage: IndexedLeafPreimage;
  readonly siblingPath: readonly bigint[];
}

/** A leaf's membership witness (an indexed tree's with its preimage). */
export interface UpstreamWitness {
  readonly index: bigint;
  readonly preimage?: IndexedLeafPreimage;
  readonly siblingPath: readonly bigint[];
}

/**
 * What a lazy fork reads of its upstream, at the fork's block: 4.1.2's AztecNode methods, which every
 * 4.1.2-compatible node serves, and (optionally) l2node's sibling path by index.
 */
export interface UpstreamWitnessSource {
  /** Where it is, for errors. */
  readonly url: string;
  /** The low leaf of `key` (the leaf holding it, or the one with the largest key below it). */
  lowLeaf(tree: MerkleTreeId, block: number, key: bigint): Promise<UpstreamLowLeaf | undefined>;
  /** Where values (keys, for indexed trees) are and the blocks that inserted them; undefined when not there. */
  findLeaves(
    tree: MerkleTreeId,
    block: number,
    values: readonly bigint[],
  ): Promise<readonly ({ index: bigint; blockNumber: number } | undefined)[]>;
  /** The membership witness of a value (a key; a block hash in the archive); undefined when not there. */
  witness(tree: MerkleTreeId, block: number, value: bigint): Promise<UpstreamWitness | undefined>;
  /** Block n's hash (its archive leaf); undefined when the upstream has no such block. */
  blockHash(n: number): Promise<bigint | undefined>;
  /** The tx effects of blocks `from` to `from + limit - 1` (fewer when it has fewer). */
  blockEffects(from: number, limit: number): Promise<readonly UpstreamBlockEffects[]>;
  /** The oldest block whose world state it still serves (node_getWorldStateSyncStatus). */
  oldestStateBlock?(): Promise<number>;
  /** The siblings of leaf `index`, leaf level first: l2node's extension, which a 4.1.2 node does not serve. */
  siblingPath?(tree: MerkleTreeId, block: number, index: bigint): Promise<readonly bigint[]>;
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
/** Blocks read per call, and in all, while looking for the trees' last leaves below the fork's block. */
const LAST_LEAF_BLOCKS_PER_CALL = 16;
const LAST_LEAF_BLOCKS = 1024;
/** Values per node_findLeavesIndexes call (4.1.2 takes up to 1000). */
const FIND_PER_CALL = 1000;

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
   * 4.1.2 serves no path by index, so each comes from the witness of the tree's last non-zero leaf (every leaf
   * after it is zero: pathPastLastLeaf): the archive's is block N's hash; the others' are found in the latest
   * tx effects that have one (lastLeaves). One witness per tree, made in parallel, each checked against its root.
   * An upstream that no longer holds the block's world state is refused naming the oldest block it can fork.
   */
  async fetchFrontiers(): Promise<void> {
    const block = this.block;
    try {
      const last = await this.lastLeaves(block);
      await Promise.all(TREES.map((info) => this.fetchFrontier(info.id, block, last[info.id])));
    } catch (err) {
      // The archive's witness at block N is proved against the archive of N-1, so N-1's state must be there too.
      const oldest = await this.source.oldestStateBlock?.().catch(() => undefined);
      if (oldest !== undefined && block <= oldest) {
        throw new UpstreamStateUnavailableError(
          `${this.source.url} keeps the world state of its blocks ${oldest} and later only (it prunes history), and ` +
            `a lazy fork at block N reads it at N and N-1, so the oldest block it can fork is ${oldest + 1} ` +
            `(--fork-block ${oldest + 1} or later, or --fork-mode replay)`,
        );
      }
      throw err;
    }
  }

  /** The frontier of one tree, from the witness of its last non-zero leaf (`last`; undefined: all zeros). */
  private async fetchFrontier(tree: MerkleTreeId, block: number, last: bigint | undefined): Promise<void> {
    const info = treeInfo(tree);
    const size = BigInt(this.ws.getTreeInfo(block, tree).size);
    let path: readonly bigint[] = emptyTreePath(tree);
    if (tree === MerkleTreeId.ARCHIVE) {
      // 4.1.2 proves block N-1's hash against the archive before N: leaf N (block N's hash, the last) is past it.
      const prev = last;
      if (prev === undefined) throw new UpstreamStateUnavailableError(`${this.source.url} has no block ${block - 1}`);
      const w = await this.ask(`the archive witness of its block ${block - 1}`, () =>
        this.source.witness(tree, block, prev),
      );
      if (w?.index !== BigInt(block - 1)) {
        throw new UpstreamStateUnavailableError(`${this.source.url} gave no archive witness of its block ${block - 1}`);
      }
      const hashN = this.ws.getBlockHash(block) as bigint;
      const pathOfN = pathPastLastLeaf({ index: w.index, leafHash: prev, siblingPath: w.siblingPath }, size - 1n);
      this.addChecked(tree, () => this.addWitness(tree, { index: size - 1n, siblingPath: pathOfN }, hashN));
      path = pathPastLastLeaf({ index: size - 1n, leafHash: hashN, siblingPath: pathOfN }, size);
    } else if (tree !== MerkleTreeId.L1_TO_L2_MESSAGE_TREE && last !== undefined) {
      const hex = `0x${last.toString(16)}`;
      const w = await this.ask(`the witness of ${info.name}'s last leaf ${hex}`, () =>
        this.source.witness(tree, block, last),
      );
      const indexed = info.kind !== 'append-only';
      if (!w || w.index >= size || (indexed && w.preimage?.key !== last)) {
        throw new UpstreamStateUnavailableError(
          `${this.source.url} gave no witness of ${info.name}'s last leaf ${hex} within its ${size} leaves at block ${block}`,
        );
      }
      const leafHash = indexed ? indexedLeafHash(tree, w.preimage as IndexedLeafPreimage) : last;
      path = pathPastLastLeaf({ index: w.index, leafHash, siblingPath: w.siblingPath }, size);
      this.addChecked(tree, () => this.addWitness(tree, w, last));
    }
    this.addChecked(tree, () => this.ws.addUpstreamPath({ tree, index: Number(size), siblingPath: pathBuffers(path) }));
  }

  /** Keeps a path, turning a refusal (it does not prove the root) into a clear error about the upstream. */
  private addChecked(tree: MerkleTreeId, add: () => void): void {
    try {
      add();
    } catch (err) {
      if (!(err instanceof UpstreamWitnessRejectedError)) throw err;
      throw new UpstreamStateUnavailableError(
        tree === MerkleTreeId.L1_TO_L2_MESSAGE_TREE
          ? `cannot fork ${this.source.url} lazily: its L1-to-L2 message tree holds messages, and no node serves ` +
              "that tree's sibling paths (the frontier a lazy fork appends on)"
          : `${this.source.url} gave a frontier of ${treeInfo(tree).name} that does not prove its root: ${err.message}`,
      );
    }
  }

  /** Keeps a membership witness of `value` (its leaf and path), checked against the root. */
  private addWitness(tree: MerkleTreeId, w: UpstreamWitness, value: bigint): void {
    const p = w.preimage;
    this.ws.addUpstreamPath({
      tree,
      index: Number(w.index),
      ...(p
        ? {
            preimage: {
              key: bigIntToBuffer32(p.key),
              value: bigIntToBuffer32(p.value),
              nextKey: bigIntToBuffer32(p.nextKey),
              nextIndex: Number(p.nextIndex),
            },
          }
        : { value: bigIntToBuffer32(value) }),
      siblingPath: pathBuffers(w.siblingPath),
    });
  }

  /**
   * Each tree's last non-zero leaf at `block` (a key for the indexed trees; undefined for a tree of zeros):
   * the last note hash and nullifier of the latest txs that have one (each tx's are padded with zeros), and the
   * public data slot at its last index, which the latest block that grew that tree appended (its writes, asked
   * where they are). Read from the upstream's blocks walking down from `block`; a tree that did not change
   * since genesis ends in a genesis leaf, which this node holds too (its genesis is the upstream's, checked).
   */
  private async lastLeaves(block: number): Promise<Partial<Record<MerkleTreeId, bigint>>> {
    const ws = this.ws;
    const size = (tree: MerkleTreeId) => Number(ws.getTreeInfo(block, tree).size);
    const publicDataSize = size(MerkleTreeId.PUBLIC_DATA_TREE);
    const genesisPublicDataSize = Number(ws.getInitialStateReference().partial.publicDataTree.nextAvailableLeafIndex);
    // Every tx inserts nullifiers: a nullifier tree of its genesis size means no tx ever, and nothing to walk for.
    const genesisNullifierSize = Number(ws.getInitialStateReference().partial.nullifierTree.nextAvailableLeafIndex);
    const anyTx = size(MerkleTreeId.NULLIFIER_TREE) > genesisNullifierSize;
    let noteHash: bigint | undefined;
    let nullifier: bigint | undefined;
    /** The latest block seen whose public data tree has its final size (the one that appended is the earliest). */
    let grew: UpstreamBlockEffects | undefined;
    let publicDataFound = publicDataSize <= genesisPublicDataSize;
    const hashes = new Map<number, bigint>([[0, ws.getGenesisBlockHash()]]);
    let to = block;
    while (to >= 1 && ((anyTx && (noteHash === undefined || nullifier === undefined)) || !publicDataFound)) {
      if (block - to >= LAST_LEAF_BLOCKS) {
        throw new UpstreamStateUnavailableError(
          `the last leaves of ${this.source.url}'s trees are more than ${LAST_LEAF_BLOCKS} blocks below block ${block}` +
            ' (fork at a later block, or use --fork-mode replay)',
        );
      }
      const from = Math.max(1, to - LAST_LEAF_BLOCKS_PER_CALL + 1);
      const blocks = await this.ask(`its blocks ${from} to ${to}`, () => this.source.blockEffects(from, to - from + 1));
      if (blocks.length !== to - from + 1 || blocks.some((b, i) => b.number !== from + i)) {
        throw new UpstreamStateUnavailableError(`${this.source.url} did not give its blocks ${from} to ${to}`);
      }
      for (const b of [...blocks].reverse()) {
        hashes.set(b.number, b.hash);
        for (const tx of [...b.txs].reverse()) {
          noteHash ??= tx.noteHashes.at(-1);
          nullifier ??= tx.nullifiers.at(-1);
        }
        if (!publicDataFound) {
          if (b.publicDataSize === publicDataSize) grew = b;
          else publicDataFound = true;
        }
      }
      to = from - 1;
    }
    // Nothing appended since genesis: the last leaf of each indexed tree is a genesis leaf.
    nullifier ??= ws.getGenesisLeafValue(MerkleTreeId.NULLIFIER_TREE, size(MerkleTreeId.NULLIFIER_TREE) - 1);
    const lastSlot =
      publicDataSize <= genesisPublicDataSize
        ? ws.getGenesisLeafValue(MerkleTreeId.PUBLIC_DATA_TREE, publicDataSize - 1)
        : await this.appendedSlot(block, grew, publicDataSize - 1);
    return {
      [MerkleTreeId.NOTE_HASH_TREE]: noteHash,
      [MerkleTreeId.NULLIFIER_TREE]: nullifier,
      [MerkleTreeId.PUBLIC_DATA_TREE]: lastSlot,
      // The archive's last leaf is block N's hash; what 4.1.2 proves at N is block N-1's.
      [MerkleTreeId.ARCHIVE]:
        hashes.get(block - 1) ??
        (await this.ask(`the hash of its block ${block - 1}`, () => this.source.blockHash(block - 1))),
    };
  }

  /** The slot among block `b`'s public data writes that sits at leaf `index` (the one it appended last). */
  private async appendedSlot(block: number, b: UpstreamBlockEffects | undefined, index: number): Promise<bigint> {
    const slots = [...new Set((b?.txs ?? []).flatMap((tx) => tx.publicDataSlots))];
    for (let i = 0; i < slots.length; i += FIND_PER_CALL) {
      const chunk = slots.slice(i, i + FIND_PER_CALL);
      const found = await this.ask(`where block ${b?.number}'s public data writes are`, () =>
        this.source.findLeaves(MerkleTreeId.PUBLIC_DATA_TREE, block, chunk),
      );
      const at = found.findIndex((f) => f?.index === BigInt(index));
      if (at >= 0) return chunk[at] as bigint;
    }
    throw new UpstreamStateUnavailableError(
      `${this.source.url} holds no public data write of its block ${b?.number} at leaf ${index}, the one that block appended`,
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
      case 'node':
        return this.fetchNode(info.id, block, BigInt(need.index) << BigInt(need.level));
      case 'leaf':
        throw new UpstreamStateUnavailableError(
          `${info.name} leaf ${need.index} is the upstream's, and no witness method gives a leaf's preimage by its index`,
        );
      case 'find': {
        // A note hash's path is served by value only (4.1.2), so its witness comes with its index.
        const withPath = info.id === MerkleTreeId.NOTE_HASH_TREE;
        const what = `where ${info.name} holds 0x${need.value.toString(16)}`;
        const [[found], w] = await Promise.all([
          this.ask(what, () => this.source.findLeaves(info.id, block, [need.value])),
          withPath
            ? this.ask(`the witness of ${what}`, () => this.source.witness(info.id, block, need.value))
            : undefined,
        ]);
        this.ws.addUpstreamLeafLocation(info.id, need.value, found);
        if (found && w?.index === found.index) this.addWitness(info.id, w, need.value);
        return;
      }
    }
  }

  /**
   * Keeps the archive leaf `index` (`hash`, a block below the fork's) with its path after the fork's block N:
   * 4.1.2's witness proves it against the archive before N, which lacks leaf N (archivePathAfter adds it, from
   * leaf N's path fetched with the frontier).
   */
  private async fetchArchiveWitness(block: number, index: bigint, hash: bigint): Promise<void> {
    const w = await this.ask(`the archive witness of its block ${index}`, () =>
      this.source.witness(MerkleTreeId.ARCHIVE, block, hash),
    );
    if (w?.index !== index) {
      throw new UpstreamStateUnavailableError(`${this.source.url} gave no archive witness of its block ${index}`);
    }
    const pathOfN = this.ws.getSiblingPath(block, MerkleTreeId.ARCHIVE, BigInt(block)).toBigInts();
    const hashN = this.ws.getBlockHash(block) as bigint;
    const siblingPath = archivePathAfter(index, w.siblingPath, BigInt(block), hashN, pathOfN);
    this.addWitness(MerkleTreeId.ARCHIVE, { index, siblingPath }, hash);
  }

  /**
   * The path of leaf `leaf` (a node the fork lacks is on it): the archive's through the block's hash and its
   * membership witness (4.1.2); another tree's through l2node's sibling path by index, as no 4.1.2 method gives
   * a path without the leaf's value (the fork fetches note hashes' paths with their indexes, so this is for a
   * path asked by index only). With the path of its neighbour, whose first sibling is this leaf.
   */
  private async fetchNode(tree: MerkleTreeId, block: number, leaf: bigint): Promise<void> {
    const info = treeInfo(tree);
    if (tree === MerkleTreeId.ARCHIVE) {
      const n = Number(leaf);
      const hash =
        n === 0
          ? this.ws.getGenesisBlockHash()
          : await this.ask(`the hash of its block ${n}`, () => this.source.blockHash(n));
      if (hash === undefined) throw new UpstreamStateUnavailableError(`${this.source.url} has no block ${n}`);
      return this.fetchArchiveWitness(block, leaf, hash);
    }
    const siblingPath = this.source.siblingPath?.bind(this.source);
    const what = (i: bigint) => `the path of ${info.name} leaf ${i} by index`;
    const why =
      ' (only l2node serves a path by index; a 4.1.2 node serves one for a leaf value, and this fork has not seen ' +
      'the value there)';
    if (!siblingPath) throw new UpstreamStateUnavailableError(`${this.source.url} cannot give ${what(leaf)}${why}`);
    const [mine, theirs] = await Promise.all([
      this.ask(what(leaf), () => siblingPath(tree, block, leaf), why),
      this.ask(what(leaf ^ 1n), () => siblingPath(tree, block, leaf ^ 1n), why),
    ]);
    const add = (index: bigint, path: readonly bigint[], value: bigint | undefined) =>
      this.ws.addUpstreamPath({
        tree,
        index: Number(index),
        value: bigIntToBuffer32(value ?? 0n),
        siblingPath: pathBuffers(path),
      });
    add(leaf, mine, theirs[0]);
    add(leaf ^ 1n, theirs, mine[0]);
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

  /** One upstream call, counted; a failure names the upstream and what was asked (and `why`, if given). */
  private async ask<T>(what: string, call: () => Promise<T>, why = ''): Promise<T> {
    this.calls++;
    try {
      return await call();
    } catch (err) {
      throw new UpstreamStateUnavailableError(
        `${this.source.url} did not give ${what}: ${(err as Error).message}${why}`,
      );
    }
  }
}
