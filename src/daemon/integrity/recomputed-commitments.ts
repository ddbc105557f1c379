import type { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import type { BlockHeader } from '../../core/block/block-header.js';
import { computeContractAddressFromInstance } from '../../core/contract/contract-address.js';
import { computeContractClassId, computePublicBytecodeCommitment } from '../../core/contract/contract-class-id.js';
import { poseidon2HashBatch } from '../../core/crypto/poseidon2.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { ChainStore } from '../store/chain-store.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { StoredDataDamagedError } from '../store/record-checksum.js';
import { CheckpointSponge } from '../sync/checkpoint-sponge.js';
import { emptySubtreeRoot } from '../world-state/empty-subtrees.js';
import { decodeIndexedLeaf, leafHashWidth, writeLeafHashInput } from '../world-state/indexed-leaf.js';
import { TREES, type TreeInfo } from '../world-state/merkle-tree-id.js';
import {
  describeKey,
  LEVEL_SPAN,
  storeKey,
  TREE_SPAN,
  WorldStateRepository,
} from '../world-state/world-state-repository.js';

/** One damaged item: the block it belongs to (null: not tied to one block), its kind, and what is wrong. */
export interface Damage {
  readonly block: number | null;
  readonly kind: string;
  readonly what: string;
}

export interface RecomputeOptions {
  /** First and last block whose commitments are recomputed (start-up: the newest N; `db check --full`: all). */
  readonly from: number;
  readonly to: number;
  /** Called as work is done: `done` of `total` steps. */
  readonly progress?: (done: number, total: number) => void;
  /** Stop after this many damaged items (a badly damaged file would list thousands). */
  readonly maxDamage?: number;
}

/**
 * Every commitment of blocks `from`..`to` recomputed from the stored data (docs/reliability.md): each record's
 * checksum; each block's header hash (its stored hash and its archive leaf) and its tx effects against the header
 * (the checkpoint's blob sponge, as a follower checks a synced body: CheckpointSponge); the tx hash index; the
 * log tag index; the block's world state (its stored roots against the header's state reference, every tree
 * node and leaf it wrote against its children or preimage, every root recomputed from the stored nodes); the
 * archive leaf against the block hash; each contract class id (from its stored data) and instance address (from
 * its fields) the blocks published. With the whole chain (`db check --full`) also the tag index's size and the
 * L1-to-L2 message index against the message tree. Nothing is written.
 */
export function recomputeCommitments(db: SqliteDatabase, store: ChainStore, o: RecomputeOptions): Damage[] {
  const damage: Damage[] = [];
  const max = o.maxDamage ?? 1000;
  const found = (block: number | null, kind: string, what: string) => {
    if (damage.length < max) damage.push({ block, kind, what });
  };
  const ws = new WorldStateRepository(db);
  const oldest = Math.max(0, Number(ws.getMeta('oldest') ?? 0));
  const oldestBody = store.oldestBlockWithBody();
  // A lazy fork holds no blocks below its first one (the upstream's), and of the upstream's trees only the
  // witnesses it fetched, each proven against the upstream's root when it came: a node whose children were
  // not fetched cannot be recomputed here.
  const from = Math.max(1, o.from, store.meta.get('forkFirstBlock') ?? 1);
  const sparse = ws.getMeta('sparseBlock') !== undefined;
  const whole = o.from <= 1;
  const total = o.to - from + 1 + (whole ? 2 : 0);
  let done = 0;
  const step = () => o.progress?.(++done, total);

  for (const n of store.blocks.damagedIn(from, o.to + 1))
    found(n, 'block record', `block ${n}: its chain_block row fails its checksum`);
  const sponge = new CheckpointSponge(store);
  for (let n = from; n <= o.to; n++) {
    guard(n, 'tx effect', () => checkBlock(n));
    step();
  }
  guard(null, 'contract class', () => checkContracts(from));
  if (whole) {
    step();
    guard(null, 'log tag index', checkWholeIndexes);
    step();
  }
  return damage;

  /**
   * Runs one check; a record that fails its checksum on the way (or bytes that cannot be decoded or hashed) is
   * damage of that record, and the check goes on with the next item.
   */
  function guard(block: number | null, kind: string, run: () => void): void {
    try {
      run();
    } catch (err) {
      if (err instanceof StoredDataDamagedError) {
        found(block, kindOf(err.record, kind), `${err.record} fails its checksum`);
      } else {
        found(
          block,
          kind,
          `${block === null ? '' : `block ${block}: `}cannot be decoded or recomputed (${(err as Error).message})`,
        );
      }
    }
  }

  function checkBlock(n: number): void {
    if (n < oldestBody) {
      checkPrunedBlock(n);
      return;
    }
    let block: ReturnType<ChainStore['getBlock']>;
    try {
      block = store.getBlock(n);
    } catch (err) {
      sponge.reset();
      guard(n, 'world state', () => checkWorldState(n, undefined));
      throw err;
    }
    if (!block) {
      found(n, 'block record', `block ${n} is missing`);
      return;
    }
    const hash = block.hash().toBuffer();
    const row = store.blocks.get(n);
    if (row && !hash.equals(row.hash))
      found(n, 'block header', `block ${n}: its header does not hash to its stored hash`);
    // The body against the header: the blob sponge over its effects (as a follower checks a synced block). A
    // checkpoint whose first blocks were pruned cannot be absorbed from its start: its kept blocks are not checked.
    try {
      if (n - block.indexWithinCheckpoint >= oldestBody) sponge.advance(block, sponge.verify(block));
    } catch (err) {
      sponge.reset();
      found(n, 'tx effect', `block ${n}: ${(err as Error).message.replace(/^.*?: /, '')}`);
    }
    block.body.txEffects.forEach((e, i) => {
      const at = store.txs.locate(e.txHash.toBuffer());
      if (!at || at.blockNumber !== n || at.txIndex !== i) {
        found(n, 'tx hash index', `block ${n} tx ${i}: its hash ${e.txHash} does not lead to it`);
      }
    });
    const missing = store.missingTagEntries(n);
    if (missing > 0) found(n, 'log tag index', `block ${n}: ${missing} tagged logs are missing from the tag index`);
    const header = block.header;
    guard(n, 'world state', () => checkWorldState(n, header));
  }

  /** A block whose body was pruned (block history pruning): its header and world state are all there is to check. */
  function checkPrunedBlock(n: number): void {
    sponge.reset();
    const header = store.getHeader(n);
    const row = store.blocks.get(n);
    if (!header || !row) {
      found(n, 'block record', `block ${n} is missing`);
      return;
    }
    if (!header.hash().toBuffer().equals(row.hash))
      found(n, 'block header', `block ${n}: its header does not hash to its stored hash`);
    guard(n, 'world state', () => checkWorldState(n, header));
  }

  /** The world state after block n: stored roots against the header, rows written by the block, recomputed roots. */
  function checkWorldState(n: number, header: BlockHeader | undefined): void {
    if (n < oldest) return;
    const stored = ws.getBlock(n);
    if (!stored) {
      found(n, 'world state', `block ${n} has no world state`);
      return;
    }
    const snapshots = decodeSnapshots(stored.state);
    if (header) {
      const expected: [number, AppendOnlyTreeSnapshot][] = [
        [0, header.state.partial.nullifierTree],
        [1, header.state.partial.noteHashTree],
        [2, header.state.partial.publicDataTree],
        [3, header.state.l1ToL2MessageTree],
      ];
      for (const [id, snap] of expected) {
        const s = snapshots[id];
        if (!s || !s.root.equals(snap.root.toBuffer()) || s.size !== snap.nextAvailableLeafIndex) {
          found(n, 'world state', `block ${n}: the stored ${TREES[id]?.name} (root, size) is not the header's`);
        }
      }
      const before = n - 1 >= oldest ? ws.getBlock(n - 1) : undefined;
      if (before) {
        const archive = decodeSnapshots(before.state)[4];
        if (archive && !archive.root.equals(header.lastArchive.root.toBuffer())) {
          found(n, 'archive', `block ${n}: the archive root before it is not its header's last archive`);
        }
      }
    }
    for (const tree of TREES) {
      const snap = snapshots[tree.id];
      if (!snap) continue;
      try {
        const rows = n === oldest ? ws.rowsAtOrBelow(tree.id, n) : ws.rowsWrittenIn(tree.id, n);
        for (const k of rows.nodes) checkNode(tree, k, n, snap.size);
        for (const k of rows.leaves) checkLeaf(tree, k, n);
        const root = hashPair(nodeAt(tree, tree.height - 1, 0, n), nodeAt(tree, tree.height - 1, 1, n));
        if (!root.equals(snap.root))
          found(
            n,
            'world state',
            `block ${n}: the ${tree.name} root recomputed from its stored nodes is not the stored root`,
          );
      } catch (err) {
        if (!(err instanceof StoredDataDamagedError)) throw err;
        found(n, 'world state', `block ${n}: ${err.record} fails its checksum`);
      }
    }
    const archived = ws.getNode(storeKey(4, 0, n), n);
    const chainHash = store.blocks.get(n)?.hash;
    if (chainHash && archived && !archived.equals(chainHash))
      found(n, 'archive', `block ${n}: its archive leaf is not its block hash`);
    if (!stored.hash.equals(chainHash ?? stored.hash))
      found(n, 'world state', `block ${n}: the world state holds another block hash`);
  }

  function nodeAt(tree: TreeInfo, level: number, index: number, block: number): Buffer {
    if (level === 0 && tree.kind !== 'append-only') {
      return ws.getLeafHashes([storeKey(tree.id, 0, index)], block)[0] ?? emptySubtreeRoot(0);
    }
    return ws.getNode(storeKey(tree.id, level, index), block) ?? emptySubtreeRoot(level);
  }

  /** Whether a node (or an indexed tree's leaf) is stored, rather than an empty subtree or not fetched. */
  function held(tree: TreeInfo, level: number, index: number, block: number): boolean {
    if (level === 0 && tree.kind !== 'append-only') {
      return ws.getLeafHashes([storeKey(tree.id, 0, index)], block)[0] != null;
    }
    return ws.getNode(storeKey(tree.id, level, index), block) != null;
  }

  function checkNode(tree: TreeInfo, k: number, block: number, size: number): void {
    const level = Math.floor((k % TREE_SPAN) / LEVEL_SPAN);
    const index = k % LEVEL_SPAN;
    if (level === 0) return; // an append-only leaf is its value: checked by the roots above it
    const stored = ws.getNode(k, block);
    if (!stored) return;
    // A node wholly beyond the tree's size holds no leaf: it must be the empty subtree.
    if (
      sparse &&
      [2 * index, 2 * index + 1].some((c) => c * 2 ** (level - 1) < size && !held(tree, level - 1, c, block))
    )
      return;
    const expected =
      index * 2 ** level >= size
        ? emptySubtreeRoot(level)
        : hashPair(nodeAt(tree, level - 1, 2 * index, block), nodeAt(tree, level - 1, 2 * index + 1, block));
    if (!expected.equals(stored))
      found(block, 'world state', `block ${block}: ${describeKey(k)} is not the hash of its children`);
  }

  function checkLeaf(tree: TreeInfo, k: number, block: number): void {
    if (tree.kind === 'append-only') return;
    const preimage = ws.getLeaf(k, block);
    const hash = ws.getLeafHashes([k], block)[0];
    if (!preimage || !hash) return;
    const width = leafHashWidth(tree.kind);
    const input = new Uint8Array(32 * width);
    writeLeafHashInput(tree.kind, decodeIndexedLeaf(tree.kind, preimage), input, 0);
    if (!Buffer.from(poseidon2HashBatch(input, width)).equals(hash)) {
      found(block, 'world state', `block ${block}: ${describeKey(k)} does not hash to its stored leaf hash`);
    }
  }

  /** Classes and instances published from block `since` on. */
  function checkContracts(since: number): void {
    for (const c of store.contractClasses.everyClass()) guard(c.block, 'contract class', () => checkClass(c));
    for (const i of store.contractInstances.everyInstance())
      guard(i.block, 'contract instance', () => checkInstance(i));

    function checkClass(
      c: ReturnType<typeof store.contractClasses.everyClass> extends Iterable<infer T> ? T : never,
    ): void {
      if (c.block < since) return;
      if (c.damaged || !c.cls) {
        found(c.block, 'contract class', `class 0x${c.id.toString('hex')}: its record fails its checksum`);
        return;
      }
      const id = computeContractClassId(
        c.cls.artifactHash.value,
        c.cls.privateFunctionsRoot.value,
        computePublicBytecodeCommitment(c.cls.packedBytecode),
      );
      if (!bigIntToBuffer32(id).equals(c.id)) {
        found(c.block, 'contract class', `class 0x${c.id.toString('hex')}: its stored data gives another class id`);
      }
    }

    function checkInstance(
      i: ReturnType<typeof store.contractInstances.everyInstance> extends Iterable<infer T> ? T : never,
    ): void {
      if (i.block < since) return;
      if (i.damaged || !i.instance) {
        found(i.block, 'contract instance', `instance 0x${i.address.toString('hex')}: its record fails its checksum`);
        return;
      }
      const address = computeContractAddressFromInstance({
        salt: i.instance.salt,
        initializationHash: i.instance.initializationHash,
        deployer: i.instance.deployer,
        originalContractClassId: i.instance.originalContractClassId,
        publicKeys: i.instance.publicKeys,
      });
      if (!address.toBuffer().equals(i.address)) {
        found(i.block, 'contract instance', `instance 0x${i.address.toString('hex')}: its fields give another address`);
      }
    }
  }

  /** Indexes checked as a whole: no tag entry, tx row or message beyond what the stored blocks hold. */
  function checkWholeIndexes(): void {
    const extraTags = store.tagEntryCount() - store.expectedTagEntryCount(o.to);
    if (extraTags !== 0)
      found(null, 'log tag index', `the tag index holds ${extraTags} entries more than the stored logs`);
    for (const m of store.l1ToL2Messages.leavesWithBlocks()) {
      const leaf = ws.getNode(storeKey(3, 0, m.index), Number.MAX_SAFE_INTEGER);
      if (!leaf || !leaf.equals(bigIntToBuffer32(m.leaf))) {
        found(m.block, 'message index', `L1-to-L2 message ${m.index}: not the leaf the message tree holds`);
      }
    }
  }
}

/** The kind of damage a failed record is, from the table its description names. */
function kindOf(record: string, fallback: string): string {
  if (record.includes('(chain_tx)')) return 'tx effect';
  if (record.includes('(chain_block)')) return 'block record';
  if (record.includes('(chain_contract_class)')) return 'contract class';
  if (record.includes('(chain_contract_instance)')) return 'contract instance';
  if (record.includes('(ws_')) return 'world state';
  return fallback;
}

function hashPair(a: Buffer, b: Buffer): Buffer {
  return Buffer.from(poseidon2HashBatch(Buffer.concat([a, b]), 2));
}

const STATE_RECORD = 40;

function decodeSnapshots(buf: Buffer): { root: Buffer; size: number }[] {
  const out: { root: Buffer; size: number }[] = [];
  for (let o = 0; o + STATE_RECORD <= buf.length; o += STATE_RECORD) {
    out.push({ root: buf.subarray(o, o + 32), size: buf.readUIntBE(o + 32, 6) * 0x10000 + buf.readUInt16BE(o + 38) });
  }
  return out;
}
