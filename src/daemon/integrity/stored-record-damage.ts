import type { ChainStore } from '../store/chain-store.js';
import { describeKey, type WorldStateRepository } from '../world-state/world-state-repository.js';
import type { Damage } from './recomputed-commitments.js';

/**
 * Every record whose checksum fails (docs/architecture.md section 4.12), by block and kind: blocks, tx effects,
 * contract classes and instances, world-state nodes and leaves. A scan of every row, no hashing beyond CRC-32.
 */
export function storedRecordDamage(store: ChainStore, ws: WorldStateRepository, tip: number): Damage[] {
  const out: Damage[] = [];
  for (const n of store.blocks.damagedIn(1, tip + 1)) {
    out.push({ block: n, kind: 'block record', what: `block ${n}: its chain_block row fails its checksum` });
  }
  for (const t of store.txs.verifyAll()) {
    if (t.ok) continue;
    const { blockNumber, txIndex } = t.location;
    out.push({
      block: blockNumber,
      kind: 'tx effect',
      what: `tx effect ${txIndex} of block ${blockNumber} fails its checksum`,
    });
  }
  for (const c of store.contractClasses.everyClass()) {
    if (c.damaged) {
      out.push({ block: c.block, kind: 'contract class', what: `class 0x${c.id.toString('hex')} fails its checksum` });
    }
  }
  for (const i of store.contractInstances.everyInstance()) {
    if (i.damaged) {
      out.push({
        block: i.block,
        kind: 'contract instance',
        what: `instance 0x${i.address.toString('hex')} fails its checksum`,
      });
    }
  }
  for (const r of ws.damagedRows()) {
    out.push({
      block: r.block,
      kind: 'world state',
      what: `${describeKey(r.k)} of block ${r.block} (${r.table}) fails its checksum`,
    });
  }
  return out;
}
