// The ceiling of bench/sync/run.js, in a process of its own (a fresh heap, as the follower has): loads the leader's
// blocks into memory, then applies them to a fresh database through Chain.applyBlock, timing only that loop.
//
//   node bench/sync/apply-locally.js <leader database> <output database> <prefunded accounts flag>
// Prints one JSON line: {"blocks": n, "txs": n, "seconds": s}.
import pino from 'pino';
import { Chain } from '../../dist/daemon/chain/chain.js';
import { resolveConfig } from '../../dist/daemon/config/resolve-config.js';
import { genesisPublicData } from '../../dist/daemon/sequencer/genesis-funding.js';
import { ChainStore } from '../../dist/daemon/store/chain-store.js';
import { openNodeDatabase } from '../../dist/daemon/store/node-database.js';
import { UpstreamSettlement } from '../../dist/daemon/sync/upstream-settlement.js';
import { WorldState } from '../../dist/daemon/world-state/world-state.js';

const [leaderPath, outPath, prefunded] = process.argv.slice(2);
const leader = openNodeDatabase(leaderPath);
const leaderStore = new ChainStore(leader);
const n = leaderStore.latestBlockNumber();
const blocks = [];
for (let from = 1; from <= n; from += 100) blocks.push(...leaderStore.getBlocks(from, Math.min(100, n - from + 1)));
const messages = blocks.map((b) =>
  b.indexWithinCheckpoint === 0 ? (leaderStore.checkpointL1ToL2Messages(b.checkpointNumber) ?? []) : [],
);
leader.close();

const db = openNodeDatabase(outPath);
// The leader's genesis: its --prefunded-accounts, every other genesis setting at its default (as the leader ran).
const { config } = resolveConfig({ 'prefunded-accounts': prefunded }, {});
const worldState = WorldState.open(db, { genesisPublicData: genesisPublicData(config) });
const store = new ChainStore(db, (m) => pino().warn(m));
const chain = new Chain({ db, worldState, store, settlement: new UpstreamSettlement(store, 'local') });
const t0 = performance.now();
for (let i = 0; i < blocks.length; i++) chain.applyBlock({ block: blocks[i], l1ToL2Messages: messages[i] });
const seconds = (performance.now() - t0) / 1000;
db.close();
const txs = blocks.reduce((a, b) => a + b.body.txEffects.length, 0);
console.log(JSON.stringify({ blocks: blocks.length, txs, seconds }));
