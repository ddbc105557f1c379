// Mempool throughput: node_sendTx's work per tx (decode the JSON, hash, validate against the world state,
// add to the SQLite pool) and the tx hash alone, beside the Poseidon2 floor: the bare sponge over the same
// 1,282 field elements a private tx hash absorbs, measured in the same run.
//
//   npm run build && node bench/mempool/run.js [txs=300] [reps=3]
//
// In process, on an in-memory database with prefunded fee payers and no pool limit; figures are medians over
// the reps. The RPC envelope around it is measured by bench/rpc.
import { AztecAddress } from '../../dist/core/aztec-address.js';
import { BlockHeader } from '../../dist/core/block/block-header.js';
import { POSEIDON2_ENGINE, poseidon2HashBytes } from '../../dist/core/crypto/poseidon2.js';
import { Fr } from '../../dist/core/fr.js';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { computeFeePayerBalanceLeafSlot } from '../../dist/core/hash/siloing.js';
import { Tx } from '../../dist/core/tx/tx.js';
import { TxBuilder } from '../../dist/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../dist/daemon/config/published-chain-values.js';
import { worldStateReader } from '../../dist/daemon/mempool/committed-state-reader.js';
import { Mempool } from '../../dist/daemon/mempool/mempool.js';
import { openNodeDatabase } from '../../dist/daemon/store/node-database.js';
import { WorldState } from '../../dist/daemon/world-state/world-state.js';
import { benchResult } from '../bench-result.js';

const count = Number(process.argv[2] ?? 300);
const reps = Number(process.argv[3] ?? 3);
if (!(count >= 10) || !(reps >= 1)) {
  console.error('usage: node bench/mempool/run.js [txs >= 10] [reps >= 1]');
  process.exit(2);
}

const PAYERS = Array.from({ length: 16 }, (_, i) => new AztecAddress(0x1000n + BigInt(i)));
const settings = {
  l1ChainId: 31337,
  rollupVersion: 1,
  vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
  protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  maxPendingTxCount: 0,
  priceBumpPercentage: 10,
  txPublicSetupAllowListExtend: [],
};

function openMempool() {
  const db = openNodeDatabase(null);
  const ws = WorldState.open(db, {
    genesisPublicData: PAYERS.map((p) => ({ slot: computeFeePayerBalanceLeafSlot(p.value), value: 10n ** 30n })),
  });
  const mempool = new Mempool({
    db,
    state: worldStateReader(ws),
    settings,
    minFees: () => new GasFees(0n, 1000n),
  });
  return { db, ws, mempool };
}

// The txs, as JSON strings the way node_sendTx receives them (a default private tx: one nullifier, 38.5 KB data).
const probe = openMempool();
const builder = new TxBuilder({
  chainId: 31337n,
  rollupVersion: 1n,
  vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
  protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  anchorBlockHeader: BlockHeader.empty({ state: probe.ws.getInitialStateReference() }),
});
probe.db.close();
const makeJson = (rep, i) =>
  JSON.stringify(
    builder
      .build({
        feePayer: PAYERS[i % PAYERS.length],
        txRequestHash: new Fr(BigInt(rep) * 1_000_000n + BigInt(i) + 1n),
        maxFeesPerGas: new GasFees(0n, 1000n),
        maxPriorityFeesPerGas: new GasFees(0n, BigInt(i % 97)),
      })
      .toJSON(),
  );

// The floor: Poseidon2 over as many fields as a private tx hash (separator + 1,281), pre-encoded.
const floorInputs = Array.from({ length: 1282 }, (_, i) => new Fr(BigInt(i) * 7919n + 3n).toBuffer());

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const perSecond = (n, ms) => (n / ms) * 1000;

const rates = { sendTx: [], isValidTx: [], txHash: [], decode: [], floor: [] };
for (let rep = 0; rep < reps; rep++) {
  const jsons = Array.from({ length: count }, (_, i) => makeJson(rep, i));

  // Decode only (JSON.parse + Tx.fromJSON, no hash).
  let t0 = performance.now();
  for (const j of jsons) Tx.fromJSON(JSON.parse(j));
  rates.decode.push(perSecond(count, performance.now() - t0));

  // Tx hash alone, on decoded txs.
  const decoded = jsons.map((j) => Tx.fromJSON(JSON.parse(j)));
  t0 = performance.now();
  for (const tx of decoded) tx.computeTxHash();
  rates.txHash.push(perSecond(count, performance.now() - t0));

  // Poseidon2 floor: the sponge over the same number of fields.
  t0 = performance.now();
  for (let i = 0; i < count; i++) poseidon2HashBytes(floorInputs);
  rates.floor.push(perSecond(count, performance.now() - t0));

  // isValidTx: decode + hash + every validator (no pool write).
  const v = openMempool();
  t0 = performance.now();
  for (const j of jsons) {
    const r = v.mempool.isValidTx(Tx.fromJSON(JSON.parse(j)));
    if (r.result !== 'valid') throw new Error(`bench tx invalid: ${JSON.stringify(r)}`);
  }
  rates.isValidTx.push(perSecond(count, performance.now() - t0));
  v.db.close();

  // sendTx: decode + hash + validate + add to the pool (SQLite row, index), what node_sendTx does.
  const s = openMempool();
  t0 = performance.now();
  for (const j of jsons) {
    const r = s.mempool.sendTx(Tx.fromJSON(JSON.parse(j)));
    if (r.outcome !== 'accepted') throw new Error(`bench tx not accepted: ${JSON.stringify(r)}`);
  }
  rates.sendTx.push(perSecond(count, performance.now() - t0));
  if (s.mempool.pendingTxCount() !== count) throw new Error('pool lost txs');
  s.db.close();
}

const m = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)]));
const rows = [
  ['sendTx (decode + hash + validate + pool add)', m.sendTx],
  ['isValidTx (decode + hash + validate)', m.isValidTx],
  ['tx hash (1,281 fields + separator)', m.txHash],
  ['Poseidon2 floor (sponge over 1,282 fields)', m.floor],
  ['decode only (JSON.parse + Tx.fromJSON)', m.decode],
];
console.log(
  `Mempool, ${count} default private txs x ${reps} reps, median; Node ${process.version}, Poseidon2 engine ${POSEIDON2_ENGINE}`,
);
console.log(`${'step'.padEnd(48)} ${'per second'.padStart(11)} ${'µs each'.padStart(9)} ${'vs floor'.padStart(9)}`);
for (const [label, rate] of rows) {
  console.log(
    `${label.padEnd(48)} ${Math.round(rate).toLocaleString('en-US').padStart(11)} ${(1e6 / rate).toFixed(1).padStart(9)} ${`${(m.floor / rate).toFixed(2)}x`.padStart(9)}`,
  );
}
console.log(
  JSON.stringify({
    bench: 'mempool',
    node: process.version,
    engine: POSEIDON2_ENGINE,
    txs: count,
    reps,
    perSecond: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Math.round(v)])),
  }),
);
benchResult(
  'mempool',
  rows
    .filter(([label]) => !label.startsWith('Poseidon2 floor'))
    .map(([label, rate]) => ({
      name: `${label} per second`,
      value: Math.round(rate),
      unit: 'txs/s',
      baseline: { name: 'Poseidon2 floor (sponge over 1,282 fields)', value: Math.round(m.floor) },
      ratio: rate / m.floor,
    })),
  { engine: POSEIDON2_ENGINE, txs: count, reps },
);
