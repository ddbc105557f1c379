import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { ContractClassPublishedEvent } from '../../src/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../src/core/contract/public-keys.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { PrivateLog } from '../../src/core/logs/private-log.js';
import type { Tx } from '../../src/core/tx/tx.js';
import { NODE_DATABASE_FILE } from '../../src/daemon/store/node-database.js';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { runCli, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * Issue 29 (and issue 33's recomputed snapshot): a byte damaged in a copy of a real data directory (a dev node's,
 * with blocks and a published contract) is found by `l2node db check --full`, refused at start, or answered as
 * DATA_DAMAGED on its first read; the node never serves the damaged bytes and never builds a block on them.
 * `db repair` re-derives a damaged world state to the same roots.
 */
const PAYER = new AztecAddress(0x5eedn);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const TAG = new Fr(0x7a6n);
const ARGS = ['--prefunded-accounts', prefundedFlag(FUNDED), '--disable-admin-api-key'];
const dirs: string[] = [];
let template: string;
let tip: number;
let txs: Tx[];
let classId: Fr;
let servedEffect: unknown;
let builder: ReturnType<typeof devTxBuilder>;
let maxFee: bigint;

function newDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'l2node-integrity-'));
  dirs.push(d);
  return d;
}
function copyOfTemplate(): string {
  const d = newDir();
  copyFileSync(join(template, NODE_DATABASE_FILE), join(d, NODE_DATABASE_FILE));
  return d;
}
/** Runs SQL on a stopped copy, as the outside tester did with sqlite3. */
function sql(dir: string, statement: string): void {
  const db = new Database(join(dir, NODE_DATABASE_FILE));
  try {
    db.exec(statement);
  } finally {
    db.close();
  }
}
/** One byte of a blob column changed in place: 40 bytes from its end, as the reproduction does. */
const flipByte = (col: string) =>
  `CAST(substr(${col},1,length(${col})-40) || X'77' || substr(${col},length(${col})-38) AS BLOB)`;

interface CheckJson {
  status: number;
  error?: {
    code: string;
    message: string;
    actions: string[];
    data?: { damage?: { block: number | null; kind: string; what: string }[] };
  };
}
async function checkFull(dir: string): Promise<{ code: number | null; json: CheckJson }> {
  const r = await runCli(['db', 'check', '--full', '--data-directory', dir, '--json']);
  return { code: r.code, json: JSON.parse(r.stdout) as CheckJson };
}
async function refusedStart(dir: string): Promise<string> {
  const p = spawnNodeProcess({ args: [...ARGS, '--data-directory', dir] });
  const exit = await p.exited;
  expect(exit.code, p.stdout() + p.stderr()).not.toBe(0);
  return p.stdout() + p.stderr();
}

beforeAll(async () => {
  await initAztecOracle();
  template = newDir();
  const node = await spawnNode({ args: [...ARGS, '--data-directory', template] });
  try {
    builder = devTxBuilder(genesisHeader(FUNDED));
    maxFee = 2n * BigInt((await result<{ feePerL2Gas: string }>(node.publicUrl, 'node_getCurrentMinFees')).feePerL2Gas);
    const contractClass = {
      artifactHash: new Fr(0xa1n),
      privateFunctionsRoot: new Fr(0xa2n),
      packedBytecode: Buffer.alloc(300, 0xc0),
    };
    classId = ContractClassPublishedEvent.create(
      contractClass.artifactHash,
      contractClass.privateFunctionsRoot,
      contractClass.packedBytecode,
    ).contractClassId;
    const instance = {
      salt: new Fr(0x5a17n),
      contractClassId: classId,
      initializationHash: new Fr(0x1217n),
      publicKeys: PublicKeys.default(),
      deployer: AztecAddress.ZERO,
    };
    const common = (n: number) => ({
      feePayer: PAYER,
      maxFeesPerGas: new GasFees(0n, maxFee),
      txRequestHash: new Fr(BigInt(9_000 + n)),
    });
    txs = [builder.build({ ...common(0), publishContractClass: contractClass, publishContractInstances: [instance] })];
    for (let n = 1; n <= 3; n++) {
      txs.push(
        builder.build({
          ...common(n),
          noteHashes: [new Fr(BigInt(1_000 + n))],
          nullifiers: [new Fr(BigInt(3_000 + n))],
          privateLogs: [PrivateLog.fromEmitted([TAG, new Fr(BigInt(n))])],
        }),
      );
    }
    for (const tx of txs) {
      await result(node.publicUrl, 'node_sendTx', [tx.toJSON()]);
      await until('mined', async () => {
        const r = await result<{ status: string }>(node.publicUrl, 'node_getTxReceipt', [tx.txHash.toString()]);
        return r.status !== 'pending' ? true : undefined;
      });
    }
    tip = await result<number>(node.publicUrl, 'node_getBlockNumber');
    servedEffect = await result(node.publicUrl, 'node_getTxEffect', [txs[1]?.txHash.toString()]);
  } finally {
    await node.stop();
  }
}, 120_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the undamaged directory', () => {
  it('passes db check --full', async () => {
    const r = await checkFull(template);
    expect(r.code, JSON.stringify(r.json)).toBe(0);
    expect(tip).toBeGreaterThanOrEqual(4);
  });
});

describe('one row of the issue each, on a copy', () => {
  it('a tx effect byte: reported by block, start refused, and with no start-up check the first read is DATA_DAMAGED and no block is built', async () => {
    const dir = copyOfTemplate();
    sql(
      dir,
      `UPDATE chain_tx SET effect = ${flipByte('effect')} WHERE id = (SELECT id FROM chain_tx ORDER BY length(effect) DESC LIMIT 1)`,
    );
    const check = await checkFull(dir);
    expect(check.code).not.toBe(0);
    expect(
      check.json.error?.data?.damage?.some((d) => d.kind === 'tx effect' && d.block !== null),
      JSON.stringify(check.json).slice(0, 1500),
    ).toBe(true);
    expect(await refusedStart(dir)).toMatch(/damaged/);

    const node = await spawnNode({ args: [...ARGS, '--data-directory', dir, '--startup-check-blocks', '0'] });
    try {
      const answers = await Promise.all(
        txs.map((tx) => call(node.publicUrl, 'node_getTxEffect', [tx.txHash.toString()])),
      );
      const damaged = answers.filter((a) => a.error);
      expect(damaged).toHaveLength(1);
      expect(damaged[0]?.error?.data?.code).toBe('DATA_DAMAGED');
      expect(damaged[0]?.error?.message).toContain(dir);
      expect(damaged[0]?.error?.message).toContain('l2node db check');
      expect(damaged[0]?.error?.message).not.toMatch(/\n\s+at /);
      // The undamaged effects are served unchanged.
      const served = answers.find((a, i) => !a.error && txs[i]?.txHash.toString() === txs[1]?.txHash.toString());
      if (served) expect(served.result).toEqual(servedEffect);
      const extra = builder.build({
        feePayer: PAYER,
        maxFeesPerGas: new GasFees(0n, maxFee),
        txRequestHash: new Fr(77n),
        nullifiers: [new Fr(4_444n)],
      });
      await call(node.publicUrl, 'node_sendTx', [extra.toJSON()]);
      await new Promise((r) => setTimeout(r, 2000));
      expect(await result<number>(node.publicUrl, 'node_getBlockNumber')).toBe(tip);
      expect(await result<boolean>(node.publicUrl, 'node_isReady')).toBe(false);
      const status = (await (await fetch(new URL('/status', node.publicUrl))).json()) as {
        ready: boolean;
        notReadyReason?: string;
        storage?: { damaged?: boolean; producing?: boolean };
      };
      expect(status).toMatchObject({ ready: false, storage: { damaged: true, producing: false } });
      expect(status.notReadyReason).toContain('l2node db check');
    } finally {
      await node.stop();
    }
  });

  it('the newest world-state leaf: reported, start refused', async () => {
    const dir = copyOfTemplate();
    sql(
      dir,
      `UPDATE ws_leaf SET leaf = ${flipByte('leaf')} WHERE (k, block) = (SELECT k, block FROM ws_leaf ORDER BY block DESC, k DESC LIMIT 1)`,
    );
    const check = await checkFull(dir);
    expect(check.code).not.toBe(0);
    expect(
      check.json.error?.data?.damage?.some((d) => d.kind === 'world state' && d.block === tip),
      JSON.stringify(check.json).slice(0, 1500),
    ).toBe(true);
    expect(await refusedStart(dir)).toMatch(/damaged.*db repair/s);
  });

  it('a contract class bytecode byte: reported, start refused, and the first read is DATA_DAMAGED', async () => {
    const dir = copyOfTemplate();
    sql(
      dir,
      `UPDATE chain_contract_class SET data = ${flipByte('data')} WHERE id = X'${classId.toBuffer().toString('hex')}'`,
    );
    const check = await checkFull(dir);
    expect(check.code).not.toBe(0);
    expect(
      check.json.error?.data?.damage?.some((d) => d.kind === 'contract class'),
      JSON.stringify(check.json).slice(0, 1500),
    ).toBe(true);
    expect(await refusedStart(dir)).toMatch(/damaged/);
    const node = await spawnNode({ args: [...ARGS, '--data-directory', dir, '--startup-check-blocks', '0'] });
    try {
      const a = await call(node.publicUrl, 'node_getContractClass', [classId.toString()]);
      expect(a.error?.data?.code).toBe('DATA_DAMAGED');
      expect(a.result).toBeUndefined();
    } finally {
      await node.stop();
    }
  });

  it('3 x 64 random bytes at 30, 55 and 80 % of the file: db check --full fails, start refused', async () => {
    const dir = copyOfTemplate();
    const file = join(dir, NODE_DATABASE_FILE);
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    let seed = 29;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const at of [0.3, 0.55, 0.8]) {
      writeSync(fd, Buffer.from(Array.from({ length: 64 }, () => next() & 0xff)), 0, 64, Math.floor(size * at));
    }
    closeSync(fd);
    const check = await checkFull(dir);
    expect(check.code).not.toBe(0);
    await refusedStart(dir);
  });

  it('a block header byte: reported, start refused', async () => {
    const dir = copyOfTemplate();
    sql(dir, `UPDATE chain_block SET header = ${flipByte('header')} WHERE number = ${tip}`);
    const check = await checkFull(dir);
    expect(check.code).not.toBe(0);
    expect(
      check.json.error?.data?.damage?.some((d) => d.block === tip),
      JSON.stringify(check.json).slice(0, 1500),
    ).toBe(true);
    expect(await refusedStart(dir)).toMatch(/damaged/);
  });

  it('a world-state leaf changed with its checksum recomputed to match (a forged snapshot): db check --full and start catch it', async () => {
    const dir = copyOfTemplate();
    const db = new Database(join(dir, NODE_DATABASE_FILE));
    try {
      const { registerChecksumFunctions } = await import('../../src/daemon/store/migrations/checksum-function.js');
      registerChecksumFunctions(db);
      db.exec(
        `UPDATE ws_leaf SET leaf = ${flipByte('leaf')} WHERE (k, block) = (SELECT k, block FROM ws_leaf ORDER BY block DESC, k DESC LIMIT 1);
         UPDATE ws_leaf SET crc = record_checksum_bytes(k, leaf, hash);`,
      );
    } finally {
      db.close();
    }
    const check = await checkFull(dir);
    expect(check.code).not.toBe(0);
    expect(
      check.json.error?.data?.damage?.some((d) => d.kind === 'world state' && d.block === tip),
      JSON.stringify(check.json).slice(0, 1500),
    ).toBe(true);
    await refusedStart(dir);
  });
});

describe('db repair', () => {
  const roots = (dir: string) => {
    const db = new Database(join(dir, NODE_DATABASE_FILE), { readonly: true });
    try {
      return (db.prepare('SELECT block, hash, state FROM ws_block ORDER BY block').all() as { state: Buffer }[]).map(
        (r) => JSON.stringify(r),
      );
    } finally {
      db.close();
    }
  };

  it('re-derives a damaged world state to the same roots; db check --full passes again', async () => {
    const dir = copyOfTemplate();
    sql(
      dir,
      `UPDATE ws_leaf SET leaf = ${flipByte('leaf')} WHERE (k, block) = (SELECT k, block FROM ws_leaf ORDER BY block DESC, k DESC LIMIT 1)`,
    );
    expect((await checkFull(dir)).code).not.toBe(0);
    const r = await runCli([
      'db',
      'repair',
      '--data-directory',
      dir,
      '--prefunded-accounts',
      prefundedFlag(FUNDED),
      '--json',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await checkFull(dir)).code).toBe(0);
    expect(roots(dir)).toEqual(roots(template));
  });

  it('names what it cannot re-derive (a damaged tx effect) and changes nothing', async () => {
    const dir = copyOfTemplate();
    sql(
      dir,
      `UPDATE chain_tx SET effect = ${flipByte('effect')} WHERE id = (SELECT id FROM chain_tx ORDER BY length(effect) DESC LIMIT 1)`,
    );
    const r = await runCli([
      'db',
      'repair',
      '--data-directory',
      dir,
      '--prefunded-accounts',
      prefundedFlag(FUNDED),
      '--json',
    ]);
    expect(r.code).not.toBe(0);
    const json = JSON.parse(r.stdout) as { error: { message: string; actions: string[] } };
    expect(json.error.message).toMatch(/tx effect .* cannot be re-derived/);
    const below = /db rollback (\d+)/.exec(json.error.actions.join(' '));
    expect(below, json.error.actions.join(' ')).not.toBeNull();
    expect(roots(dir)).toEqual(roots(template));
    // The command it names works: rolled back below the damaged effect, the directory passes the full check.
    const rollback = await runCli([
      'db',
      'rollback',
      String(below?.[1]),
      '--data-directory',
      dir,
      '--prefunded-accounts',
      prefundedFlag(FUNDED),
      '--json',
    ]);
    expect(rollback.code, rollback.stdout + rollback.stderr).toBe(0);
    const after = await checkFull(dir);
    expect(after.code, JSON.stringify(after.json)).toBe(0);
  });
});

describe('seeded random damage', () => {
  /** What the node serves and builds on: every covered table, in key order. */
  const dump = (db: Database.Database) =>
    ['chain_block', 'chain_tx', 'chain_contract_class', 'chain_contract_instance', 'ws_node', 'ws_leaf', 'ws_block']
      .map((t) => JSON.stringify(db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).raw().all()))
      .join('\n');

  it('50 offsets, one at a time on a copy: each copy that opens is caught by the full check or unchanged', async () => {
    const { openNodeDatabase } = await import('../../src/daemon/store/node-database.js');
    const { runDatabaseChecks } = await import('../../src/daemon/store/database-checks.js');
    const { MIGRATIONS } = await import('../../src/daemon/store/migrations/index.js');
    const { ChainStore } = await import('../../src/daemon/store/chain-store.js');
    const { WorldStateRepository } = await import('../../src/daemon/world-state/world-state-repository.js');
    const { recomputeCommitments } = await import('../../src/daemon/integrity/recomputed-commitments.js');
    const { storedRecordDamage } = await import('../../src/daemon/integrity/stored-record-damage.js');
    const original = new Database(join(template, NODE_DATABASE_FILE), { readonly: true });
    const expected = dump(original);
    original.close();
    const dir = newDir();
    const file = join(dir, NODE_DATABASE_FILE);
    let seed = 4229;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const outcomes = { unopenable: 0, caught: 0, unchanged: 0 };
    for (let i = 0; i < 50; i++) {
      copyFileSync(join(template, NODE_DATABASE_FILE), file);
      const size = statSync(file).size;
      const offset = next() % (size - 8);
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.from(Array.from({ length: 8 }, () => next() & 0xff)), 0, 8, offset);
      closeSync(fd);
      let db: Database.Database;
      try {
        db = openNodeDatabase(file, { readonly: true });
      } catch {
        outcomes.unopenable++;
        continue;
      }
      try {
        const caught = db.transaction(() => {
          if (
            !runDatabaseChecks(
              db,
              MIGRATIONS.map((m) => m.version),
            ).every((c) => c.ok)
          )
            return true;
          const store = new ChainStore(db);
          const tip = store.latestBlockNumber();
          if (storedRecordDamage(store, new WorldStateRepository(db), tip).length > 0) return true;
          return recomputeCommitments(db, store, { from: 1, to: tip }).length > 0;
        })();
        if (caught) outcomes.caught++;
        else {
          expect(dump(db), `offset ${offset}: not caught, yet changed`).toBe(expected);
          outcomes.unchanged++;
        }
      } catch {
        // SQLite itself refused the damaged file on the way: caught.
        outcomes.caught++;
      } finally {
        db.close();
      }
    }
    expect(outcomes.unopenable + outcomes.caught + outcomes.unchanged).toBe(50);
    expect(outcomes.caught).toBeGreaterThan(0);
  }, 120_000);
});
