// Dev chain cheat codes (issue 20): what nodeDev_snapshot and nodeDev_revert cost on a chain of a given size,
// beside a baseline measured in the same run on the same disk: copying the database file as it is (the floor
// of any full copy of the state). A snapshot is VACUUM INTO (a compacted copy, one read transaction); a revert
// replaces every table from the copy in one transaction.
//
//   npm run build && node bench/dev/run.js [blocks=300] [txsPerBlock=8] [rounds=5]
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { AztecAddress } from '../../dist/core/aztec-address.js';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { DevTools } from '../../dist/daemon/dev/dev-tools.js';
import { startBenchDevChain } from '../bench-dev-chain.js';
import { benchResult } from '../bench-result.js';

const blocks = Number(process.argv[2] ?? 300);
const txsPerBlock = Number(process.argv[3] ?? 8);
const rounds = Number(process.argv[4] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-dev-'));
const dbPath = join(dir, 'l2node.sqlite');
const fmt = (n, d = 1) => n.toFixed(d);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const payers = Array.from({ length: 8 }, (_, i) => new AztecAddress(0x9000n + BigInt(i)));
  const { clock, db, pending, service, builder } = await startBenchDevChain(
    { 'sequencer-mode': 'instant', 'prefunded-accounts': payers.map((p) => `${p}:${10n ** 30n}`).join(',') },
    dbPath,
  );
  for (let b = 0; b < blocks; b++) {
    for (let t = 0; t < txsPerBlock; t++) {
      pending.push(
        builder.build({
          feePayer: payers[(b * txsPerBlock + t) % payers.length],
          maxFeesPerGas: new GasFees(0n, 2000n),
          now: BigInt(Math.floor(clock.now() / 1000)),
        }),
      );
    }
    service.sequencer.mineBlocks(1);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  const size = statSync(dbPath).size;
  console.log(
    `dev bench: ${service.chain.latestBlockNumber} blocks of ${txsPerBlock} txs, database ${fmt(size / 2 ** 20)} MiB`,
  );

  const tools = new DevTools({
    config: { dataDirectory: dir, devSnapshotLimit: rounds + 1, dumpState: undefined, loadState: undefined },
    db,
    chain: service,
    exclusive: (fn) => fn(),
    sequencer: service.sequencer,
    sequencerMode: () => 'instant',
    log: pino({ level: 'silent' }),
  });
  await tools.start();
  const copy = [];
  const snapshot = [];
  const revert = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    copyFileSync(dbPath, join(dir, `copy-${r}.sqlite`));
    copy.push(performance.now() - t);
    t = performance.now();
    const id = tools.snapshot();
    snapshot.push(performance.now() - t);
    service.sequencer.mineBlocks(2);
    t = performance.now();
    await tools.revert(id);
    revert.push(performance.now() - t);
  }
  await tools.stop();
  const base = { name: `copy the ${fmt(size / 2 ** 20)} MiB database file`, value: median(copy) };
  console.log(
    `snapshot ${fmt(median(snapshot))} ms, revert ${fmt(median(revert))} ms, file copy ${fmt(base.value)} ms (medians of ${rounds})`,
  );
  benchResult(
    'dev',
    [
      {
        name: 'nodeDev_snapshot',
        value: median(snapshot),
        unit: 'ms',
        baseline: base,
        ratio: base.value / median(snapshot),
        lowerIsBetter: true,
      },
      {
        name: 'nodeDev_revert',
        value: median(revert),
        unit: 'ms',
        baseline: base,
        ratio: base.value / median(revert),
        lowerIsBetter: true,
      },
    ],
    { blocks: service.chain.latestBlockNumber, txsPerBlock, databaseBytes: size },
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
