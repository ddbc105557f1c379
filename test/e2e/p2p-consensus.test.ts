import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverMessageAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { CheckpointHeader } from '../../src/core/block/checkpoint-header.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { checkpointAttestationDigest } from '../../src/daemon/validators/consensus-digest.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';
import { keystoreDir, keystoreV1, testAddress } from '../unit/daemon/validators/validator-fixtures.js';

/**
 * A committee spread over nodes (issue 28): a bootstrap node, three validator nodes each holding one attester of
 * a three-member committee, and one plain node, all on loopback, finding each other from the bootstrap node's
 * ENR. The proposer of each slot gossips its blocks and its checkpoint; the others re-execute the blocks, the
 * validators attest over gossip, and every node records each checkpoint with the attestations it gathered.
 * 20 txs (not the issue's 50: five nodes on a loaded two-core machine) are sent round robin to all five.
 * Then one validator stops: with three members the quorum is 3 (4.1.2's 2/3 + 1), so checkpoints stop with
 * a log line naming the slot, the attestations and the quorum; it restarts on its data directory and they
 * resume.
 */
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const TXS = 20;
const SLOT_SECONDS = 5;
const MEMBERS = [0, 1, 2].map(testAddress);
const P2P = ['--p2p-enabled', '--p2p-port', '0', '--p2p-listen-address', '127.0.0.1'];

let genesisTime: number;
let bootstrap: RunningNode;
const validators: RunningNode[] = [];
let plain: RunningNode;
let keystores: ReturnType<typeof keystoreDir>[] = [];
const dataDirs: string[] = [];
let builder: TxBuilder;
let maxFee: bigint;

const all = () => [bootstrap, ...validators, plain];

function common(): string[] {
  return [
    '--prefunded-accounts',
    prefundedFlag(FUNDED),
    '--disable-admin-api-key',
    ...P2P,
    ...['--genesis-time', String(genesisTime)],
    ...['--slot-duration', String(SLOT_SECONDS), '--blocks-per-slot', '2', '--min-txs-per-block', '0'],
    ...['--sequencer-mode', 'on-demand'],
  ];
}

function validatorArgs(i: number, enr: string): string[] {
  const others = MEMBERS.filter((_, j) => j !== i).join(',');
  return [
    ...common(),
    ...['--keystore-directory', (keystores[i] as ReturnType<typeof keystoreDir>).dir],
    ...['--committee-addresses', others],
    ...['--data-directory', dataDirs[i] as string],
    ...['--bootstrap-nodes', enr],
  ];
}

interface Tips {
  proposed: { number: number; hash: string };
  checkpointed: { block: { number: number; hash: string }; checkpoint: { number: number } };
}
interface PublishedCheckpoint {
  checkpoint: { header: Record<string, unknown>; archive: { root: string }; number: number };
  attestations: { address: string; signature: string }[];
}

const tips = (n: RunningNode) => result<Tips>(n.publicUrl, 'node_getL2Tips');

beforeAll(async () => {
  genesisTime = Math.floor(Date.now() / 1000) - SLOT_SECONDS;
  keystores = [0, 1, 2].map((i) => {
    const ks = keystoreDir();
    ks.write('v.json', keystoreV1([i]));
    return ks;
  });
  for (let i = 0; i < 3; i++) dataDirs.push(mkdtempSync(join(tmpdir(), 'l2node-consensus-')));
  const watch = ['--committee-addresses', MEMBERS.join(',')];
  bootstrap = await spawnNode({ readyTimeoutMs: scaled(150_000), args: [...common(), ...watch] });
  const enr = await result<string>(bootstrap.publicUrl, 'node_getEncodedEnr');
  const started = await Promise.all([
    ...[0, 1, 2].map((i) => spawnNode({ readyTimeoutMs: scaled(150_000), args: validatorArgs(i, enr) })),
    spawnNode({ readyTimeoutMs: scaled(150_000), args: [...common(), ...watch, '--bootstrap-nodes', enr] }),
  ]);
  validators.push(...started.slice(0, 3));
  plain = started[3] as RunningNode;
  builder = devTxBuilder(genesisHeader(FUNDED));
  const fees = await result<{ feePerL2Gas: string }>(bootstrap.publicUrl, 'node_getCurrentMinFees');
  maxFee = 4n * BigInt(fees.feePerL2Gas);
}, scaled(360_000));

afterAll(async () => {
  await Promise.all(all().map((n) => n?.stop()));
  for (const ks of keystores) ks.cleanup();
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
});

describe('a committee of three validator nodes over gossip', () => {
  it(
    'the five nodes join from one bootstrap ENR: the bootstrap node handshakes with the four others',
    async () => {
      await until(
        'the bootstrap node to list the four others, each with a passed handshake',
        async () => {
          const peers = await result<{ status?: unknown }[]>(bootstrap.adminUrl, 'nodeAdmin_getPeers');
          return peers.filter((p) => p.status).length >= 4 ? true : undefined;
        },
        { timeoutMs: 60_000 },
      );
      for (const n of all().slice(1)) {
        expect((await result<unknown[]>(n.adminUrl, 'nodeAdmin_getPeers')).length).toBeGreaterThan(0);
      }
    },
    scaled(90_000),
  );

  it(
    'txs sent round robin to all five are mined; every node has the same tips, blocks and roots',
    async () => {
      const sent: string[] = [];
      for (let i = 0; i < TXS; i++) {
        const tx = builder.build({
          feePayer: PAYER,
          txRequestHash: new Fr(BigInt(i) + 7_000_000n),
          maxFeesPerGas: new GasFees(0n, maxFee),
        });
        const node = all()[i % 5] as RunningNode;
        expect((await call(node.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
        sent.push(tx.txHash.toString());
      }
      // Checkpointed on every node: the txs' blocks went through re-execution and a quorum of attestations.
      const mined = await until(
        'every tx checkpointed on every node',
        async () => {
          for (const n of all()) {
            for (const h of sent) {
              const r = await result<{ status: string; blockNumber?: number }>(n.publicUrl, 'node_getTxReceipt', [h]);
              if (r.status !== 'checkpointed' && r.status !== 'proven' && r.status !== 'finalized') return undefined;
            }
          }
          return true;
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      expect(mined).toBe(true);
      const agreed = await until(
        'the same checkpointed tip everywhere',
        async () => {
          const t = await Promise.all(all().map(tips));
          const first = t[0] as Tips;
          return t.every((x) => x.checkpointed.block.hash === first.checkpointed.block.hash) ? first : undefined;
        },
        { timeoutMs: 30_000 },
      );
      const last = agreed.checkpointed.block.number;
      for (let n = 1; n <= last; n++) {
        const blocks = await Promise.all(
          all().map((node) =>
            result<{ header: { state: unknown }; archive: unknown }>(node.publicUrl, 'node_getBlock', [n]),
          ),
        );
        for (const b of blocks) {
          expect(b.archive).toEqual(blocks[0]?.archive);
          expect(b.header).toEqual(blocks[0]?.header);
        }
      }
    },
    scaled(150_000),
  );

  it('each checkpoint carries attestations gathered over gossip, recovering to the committee members', async () => {
    const t = await tips(plain);
    const number = t.checkpointed.checkpoint.number;
    expect(number).toBeGreaterThan(0);
    for (const node of all()) {
      const [c] = await result<PublishedCheckpoint[]>(node.publicUrl, 'node_getCheckpoints', [number, 1]);
      if (!c) throw new Error(`no checkpoint ${number}`);
      const signed = c.attestations.filter((a) => !/^0x0*$/.test(a.signature));
      expect(signed.length).toBe(3);
      const header = CheckpointHeader.fromJSON(c.checkpoint.header as never);
      const digest = checkpointAttestationDigest({ header, archiveRoot: BigInt(c.checkpoint.archive.root) });
      const signers = await Promise.all(
        signed.map((a) => recoverMessageAddress({ message: { raw: digest }, signature: a.signature as `0x${string}` })),
      );
      expect(signers.map((s) => s.toLowerCase()).sort()).toEqual([...MEMBERS].sort());
    }
    // A validator's own node holds its key only: the other two signatures came over gossip.
    const line = validators[0]
      ?.logs()
      .find((l) => /recorded with 3 of 3 attestations gathered over P2P/.test(l.msg ?? ''));
    expect(line ?? validators[0]?.logs().find((l) => /published checkpoint/.test(l.msg ?? ''))).toBeDefined();
  });

  it(
    'one validator stops: checkpoints stop with a line naming the slot, the attestations and the quorum; it returns and they resume',
    async () => {
      const before = (await tips(plain)).checkpointed.checkpoint.number;
      const stopped = validators[2] as RunningNode;
      // Stopped once it holds the network's last checkpoint, so it comes back with nothing to catch up on.
      await until('validator 2 to hold the last checkpoint', async () =>
        (await tips(stopped)).checkpointed.checkpoint.number >= before ? true : undefined,
      );
      await stopped.stop();
      const line = await until(
        'a proposer to report a missed quorum',
        async () =>
          validators
            .slice(0, 2)
            .flatMap((v) => v.logs())
            .find((l) => /has 2 of 3 attestations; the quorum is 3/.test(l.msg ?? '')),
        { timeoutMs: 60_000 },
      );
      expect(line.slot).toBeTypeOf('number');
      expect(line).toMatchObject({ attestations: 2, quorum: 3 });
      const enr = await result<string>(bootstrap.publicUrl, 'node_getEncodedEnr');
      validators[2] = await spawnNode({ readyTimeoutMs: scaled(150_000), args: validatorArgs(2, enr) });
      const stalled = (await tips(plain)).checkpointed.checkpoint.number;
      await until(
        'checkpoints to resume on every node',
        async () => {
          const t = await Promise.all(all().map(tips));
          return t.every((x) => x.checkpointed.checkpoint.number > stalled + 1) ? true : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      // The returned validator attests again: the latest checkpoint carries its signature too.
      const number = (await tips(plain)).checkpointed.checkpoint.number;
      const [c] = await result<PublishedCheckpoint[]>(plain.publicUrl, 'node_getCheckpoints', [number, 1]);
      const signers = c?.attestations.filter((a) => !/^0x0*$/.test(a.signature)).map((a) => a.address.toLowerCase());
      expect(signers).toContain(MEMBERS[2]);
    },
    scaled(240_000),
  );
});
