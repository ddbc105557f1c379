// The ~20 KB result of the RPC benchmark, built as docs/baselines.md section 1.2 describes it: a block-like
// object with 26 tx-effect-like entries of 32-byte hex strings (about 20.9 KB of JSON). Deterministic, so runs compare.
import { createHash } from 'node:crypto';

const hex32 = (seed) => `0x${createHash('sha256').update(String(seed)).digest('hex')}`;

export function heavyPayload() {
  const txEffects = [];
  for (let i = 0; i < 26; i++) {
    txEffects.push({
      txHash: hex32(`tx${i}`),
      revertCode: 0,
      transactionFee: String(1_000_000_000n * BigInt(i + 1)),
      noteHashes: [hex32(`nh${i}a`), hex32(`nh${i}b`)],
      nullifiers: [hex32(`nf${i}a`), hex32(`nf${i}b`)],
      publicDataWrites: [{ leafSlot: hex32(`pd${i}`), value: hex32(`pv${i}`) }],
      privateLogs: [{ fields: [hex32(`pl${i}a`), hex32(`pl${i}b`)], emittedLength: 2 }],
    });
  }
  return {
    number: 12345,
    timestamp: 1730000000,
    archive: { root: hex32('archive'), nextAvailableLeafIndex: 12346 },
    txEffects,
  };
}
