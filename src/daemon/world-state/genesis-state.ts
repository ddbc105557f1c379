import { GENESIS_NULLIFIER_LEAVES, GENESIS_PUBLIC_DATA_LEAVES } from '../../core/constants.js';
import { FR_MODULUS } from '../../core/fr.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { IndexedLeaf } from './indexed-leaf.js';
import { ZERO32 } from './indexed-leaf.js';
import { InvalidWorldStateArgumentError } from './world-state-errors.js';

/** A public data leaf present at genesis (e.g. a prefunded fee juice balance): tree leaf slot and value. */
export interface GenesisPublicData {
  readonly slot: bigint;
  readonly value: bigint;
}

/**
 * The 128 prefilled nullifier leaves (docs/aztec-facts.md section 3.3): leaf i = (i, next i+1 at i+1), the last
 * one (127) points to (0, 0).
 */
export function genesisNullifierLeaves(): IndexedLeaf[] {
  const leaves: IndexedLeaf[] = [];
  for (let i = 0; i < GENESIS_NULLIFIER_LEAVES; i++) {
    const last = i === GENESIS_NULLIFIER_LEAVES - 1;
    leaves.push({
      key: bigIntToBuffer32(BigInt(i)),
      value: ZERO32,
      nextKey: last ? ZERO32 : bigIntToBuffer32(BigInt(i + 1)),
      nextIndex: last ? 0 : i + 1,
    });
  }
  return leaves;
}

/**
 * The 128 prefilled public data leaves. Without prefill, leaf i = (slot i, value 0). With N prefilled entries
 * the size stays 128: slots 0..127-N keep the padding leaves and the last N positions hold the prefilled
 * (slot, value) pairs sorted by slot, all chained in key order (docs/aztec-facts.md section 3.3, verified with
 * N = 2 against test/fixtures/aztec-4.1.2-vectors.json).
 */
export function genesisPublicDataLeaves(prefill: readonly GenesisPublicData[] = []): IndexedLeaf[] {
  const n = prefill.length;
  if (n > GENESIS_PUBLIC_DATA_LEAVES) {
    throw new InvalidWorldStateArgumentError(
      `At most ${GENESIS_PUBLIC_DATA_LEAVES} genesis public data entries fit the prefilled tree, got ${n}`,
    );
  }
  const padding = GENESIS_PUBLIC_DATA_LEAVES - n;
  const sorted = [...prefill].sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
  for (let i = 0; i < sorted.length; i++) {
    const { slot, value } = sorted[i] as GenesisPublicData;
    if (slot < 0n || slot >= FR_MODULUS || value < 0n || value >= FR_MODULUS) {
      throw new InvalidWorldStateArgumentError(`Genesis public data entry ${i} is not a pair of field elements`);
    }
    if (slot < BigInt(padding)) {
      throw new InvalidWorldStateArgumentError(
        `Genesis public data slot ${slot} collides with the padding leaves (slots 0 to ${padding - 1} are taken)`,
      );
    }
    if (i > 0 && (sorted[i - 1] as GenesisPublicData).slot === slot) {
      throw new InvalidWorldStateArgumentError(`Genesis public data slot ${slot} appears twice`);
    }
  }
  const pairs: { slot: Buffer; value: Buffer }[] = [];
  for (let i = 0; i < padding; i++) pairs.push({ slot: bigIntToBuffer32(BigInt(i)), value: ZERO32 });
  for (const p of sorted) pairs.push({ slot: bigIntToBuffer32(p.slot), value: bigIntToBuffer32(p.value) });
  return pairs.map((p, i) => {
    const next = pairs[i + 1];
    return { key: p.slot, value: p.value, nextKey: next ? next.slot : ZERO32, nextIndex: next ? i + 1 : 0 };
  });
}
