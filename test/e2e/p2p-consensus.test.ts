import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverMessageAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { CheckpointHeader } from '../../src/core/block/checkpoint-header.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { Tx } from '../../src/core/tx/tx.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { checkpointAttestationDigest } from '../../src/daemon/validators/consensus-digest.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';
import { keystoreDir, keystoreV1, testAddress } from '../unit/daemon/validators/validator-fixtures.js';

/**
 * A committee spread over nodes (issue 28): a bootstrap node holding one attester and three validator nodes
 * holding one each (a four-member committee), and one plain node, all on loopback, finding each other from the
 * bootstrap node's ENR. The proposer of each slot gossips its blocks and its checkpoint; the others re-execute
 * the blocks, the validators attest over gossip, and every node records each checkpoint with the attestations
 * it gathered. Txs are sent round robin to all five.
 *
 * Four members, not the issue's three: 4.1.2's quorum is 2/3 + 1 of the committee (the rollup contract refuses a
 * checkpoint with fewer), 3 of 3 or 3 of 4, so only a four-member committee keeps checkpointing with a validator
 * down (docs/compatibility.md). One validator stops: blocks and checkpoints keep coming with 3 of 4. A second
 * stops: checkpoints stop with a log line naming the slot, the attestations and the quorum. The first returns on
 * its data directory: it catches up from its peers, attests again (3 of 4 now needs it) and checkpoints resume.
 */
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const TXS = 50;
const SLOT_SECONDS = 8;
const MEMBERS = [0, 1, 2, 3].map(testAddress);
/** The bootstrap node holds the fourth attester. */
const BOOTSTRAP_MEMBER = 3;
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
    ...['--slot-duration', String(SLOT_SECONDS), '--blocks-per-slot', '1', '--min-txs-per-block', '0'],
    ...['--sequencer-mode', 'on-demand'],
  ];
}

/** A node holding attester `i` (its keystore), told the rest of the committee. */
function attesterArgs(i: number): string[] {
  const others = MEMBERS.filter((_, j) => j !== i).join(',');
  return [
    ...['--keystore-directory', (keystores[i] as ReturnType<typeof keystoreDir>).dir],
    ...['--committee-addresses', others],
  ];
}

function validatorArgs(i: number, enr: string): string[] {
  return [
    ...common(),
    ...attesterArgs(i),
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
const checkpointNumber = async (n: RunningNode) => (await tips(n)).checkpointed.checkpoint.number;

/** The members whose signatures checkpoint `number` carries on `node`, each checked to recover to its member. */
async function signersOf(node: RunningNode, number: number): Promise<string[]> {
  const [c] = await result<PublishedCheckpoint[]>(node.publicUrl, 'node_getCheckpoints', [number, 1]);
  if (!c) throw new Error(`no checkpoint ${number}`);
  const signed = c.attestations.filter((a) => !/^0x0*$/.test(a.signature));
  const header = CheckpointHeader.fromJSON(c.checkpoint.header as never);
  const digest = checkpointAttestationDigest({ header, archiveRoot: BigInt(c.checkpoint.archive.root) });
  for (const a of signed) {
    const signer = await recoverMessageAddress({ message: { raw: digest }, signature: a.signature as `0x${string}` });
    expect(signer.toLowerCase()).toBe(a.address.toLowerCase());
  }
  return signed.map((a) => a.address.toLowerCase()).sort();
}

/**
 * node_sendTx, sent once more when the connection was reset: on this loaded machine a kept-alive socket may be
 * closed by the node just as the request goes out (it never reached the node; a tx sent twice is taken once).
 */
async function sendTx(node: RunningNode, tx: Tx) {
  try {
    return await call(node.publicUrl, 'node_sendTx', [tx.toJSON()]);
  } catch {
    return call(node.publicUrl, 'node_sendTx', [tx.toJSON()]);
  }
}

/** The lines of `nodes` logged after `marks` (their log lengths at some earlier point) that match `pattern`. */
function linesSince(nodes: RunningNode[], marks: number[], pattern: RegExp) {
  return nodes.flatMap((n, i) => n.logs().slice(marks[i] ?? 0)).filter((l) => pattern.test(l.msg ?? ''));
}

beforeAll(async () => {
  genesisTime = Math.floor(Date.now() / 1000) - SLOT_SECONDS;
  keystores = [0, 1, 2, 3].map((i) => {
    const ks = keystoreDir();
    ks.write('v.json', keystoreV1([i]));
    return ks;
  });
  for (let i = 0; i < 3; i++) dataDirs.push(mkdtempSync(join(tmpdir(), 'l2node-consensus-')));
  const watch = ['--committee-addresses', MEMBERS.join(',')];
  bootstrap = await spawnNode({
    readyTimeoutMs: scaled(150_000),
    args: [...common(), ...attesterArgs(BOOTSTRAP_MEMBER)],
  });
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

describe('a committee of four attesters over five nodes', () => {
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
      for (const n of all()) {
        const ids = (await result<{ id: string }[]>(n.adminUrl, 'nodeAdmin_getPeers')).map((p) => p.id);
        expect(ids.length).toBeGreaterThan(0);
        // Nodes that found each other at once dialled each other at once: still one entry per peer.
        expect(new Set(ids).size).toBe(ids.length);
      }
    },
    scaled(90_000),
  );

  it(
    'txs sent round robin to all five are mined; every node has the same tips, blocks and roots',
    async () => {
      const txs = Array.from({ length: TXS }, (_, i) =>
        builder.build({
          feePayer: PAYER,
          txRequestHash: new Fr(BigInt(i) + 7_000_000n),
          maxFeesPerGas: new GasFees(0n, maxFee),
        }),
      );
      // Each node takes its share one tx after another, the five at once.
      await Promise.all(
        all().map(async (node, k) => {
          for (const tx of txs.filter((_, i) => i % 5 === k)) {
            expect((await sendTx(node, tx)).error).toBeUndefined();
          }
        }),
      );
      const sent = txs.map((tx) => tx.txHash.toString());
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

  it(
    'each checkpoint carries a quorum of attestations gathered over gossip, recovering to the committee members',
    async () => {
      // The next checkpoint, which every node follows over gossip (one that a lagging node caught up to from its
      // peers carries no attestations there: docs/network.md).
      const number = (await checkpointNumber(plain)) + 1;
      await until(
        `checkpoint ${number} on every node`,
        async () => ((await Promise.all(all().map(checkpointNumber))).every((n) => n >= number) ? true : undefined),
        { timeoutMs: 40_000, intervalMs: 500 },
      );
      for (const node of all()) {
        const signers = await signersOf(node, number);
        expect(signers.length).toBeGreaterThanOrEqual(3);
        expect(MEMBERS).toEqual(expect.arrayContaining(signers));
      }
      // A validator's own node holds its key only: the other signatures came over gossip.
      const line = validators[0]
        ?.logs()
        .find((l) => /recorded with [34] of 4 attestations gathered over P2P/.test(l.msg ?? ''));
      expect(line ?? validators[0]?.logs().find((l) => /published checkpoint/.test(l.msg ?? ''))).toBeDefined();
    },
    scaled(60_000),
  );

  it(
    'one validator stops: blocks and checkpoints keep coming with 3 of 4 attestations',
    async () => {
      const before = await tips(plain);
      await (validators[2] as RunningNode).stop();
      const running = [bootstrap, validators[0], validators[1], plain] as RunningNode[];
      // Three checkpoints: four slots at most, the stopped validator's own slot among them.
      await until(
        'three more checkpoints on the running nodes',
        async () => {
          const t = await Promise.all(running.map(checkpointNumber));
          return t.every((n) => n >= before.checkpointed.checkpoint.number + 3) ? true : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      expect((await tips(plain)).proposed.number).toBeGreaterThan(before.proposed.number);
      const last = await checkpointNumber(plain);
      const signers = await signersOf(plain, last);
      expect(signers).not.toContain(MEMBERS[2]);
      expect(signers.length).toBe(3);
    },
    scaled(90_000),
  );

  it(
    'a second validator stops: checkpoints stop with a line naming the slot, the attestations and the quorum; the first returns, catches up, attests again and they resume',
    async () => {
      const marks = all().map((n) => n.logs().length);
      await (validators[1] as RunningNode).stop();
      const line = await until(
        'a proposer to report a missed quorum',
        () =>
          linesSince([bootstrap, validators[0] as RunningNode], marks, /has 2 of 4 attestations; the quorum is 3/)[0],
        { timeoutMs: 60_000 },
      );
      expect(line.slot).toBeTypeOf('number');
      expect(line).toMatchObject({ attestations: 2, quorum: 3 });
      const stalled = await checkpointNumber(plain);
      // Txs the returning validator never sees gossiped: they stay pending (their blocks get no quorum) until it
      // is back, then its first proposal to re-execute holds them (one block a slot: a proposal's block is
      // always its checkpoint's first, past what the catch-up fetches) and it must fetch them from its peers.
      const late = Array.from({ length: 3 }, (_, i) =>
        builder.build({
          feePayer: PAYER,
          txRequestHash: new Fr(BigInt(i) + 8_000_000n),
          maxFeesPerGas: new GasFees(0n, maxFee),
        }),
      );
      for (const tx of late) expect((await sendTx(bootstrap, tx)).error).toBeUndefined();
      const enr = await result<string>(bootstrap.publicUrl, 'node_getEncodedEnr');
      const back = await spawnNode({ readyTimeoutMs: scaled(150_000), args: validatorArgs(2, enr) });
      validators[2] = back;
      const running = [bootstrap, validators[0], back, plain] as RunningNode[];
      await until(
        'checkpoints to resume on the running nodes, the returned one too',
        async () => {
          const t = await Promise.all(running.map(checkpointNumber));
          return t.every((n) => n > stalled + 1) ? true : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      // It missed the checkpoints of the first stop: they came from its peers.
      expect(back.logs().some((l) => /caught up to block \d+ from peers/.test(l.msg ?? ''))).toBe(true);
      // The late txs are mined everywhere, the returned node's copy of them fetched from its peers.
      for (const tx of late) {
        const r = await result<{ status: string }>(back.publicUrl, 'node_getTxReceipt', [tx.txHash.toString()]);
        expect(['checkpointed', 'proven', 'finalized']).toContain(r.status);
      }
      const fetched = back.logs().find((l) => /missing txs fetched from peers/.test(l.msg ?? ''));
      expect(fetched).toBeDefined();
      expect(fetched?.fetched).toBe(fetched?.missing);
      expect(fetched?.fetched).toBeGreaterThan(0);
      // With two of four down a quorum needs all three others: every new checkpoint carries its signature.
      for (let n = stalled + 1; n <= (await checkpointNumber(plain)); n++) {
        expect(await signersOf(plain, n)).toContain(MEMBERS[2]);
      }
      const t = await Promise.all(running.map(tips));
      const number = Math.min(...t.map((x) => x.checkpointed.checkpoint.number));
      const hashes = await Promise.all(
        running.map(async (node) => {
          const [c] = await result<PublishedCheckpoint[]>(node.publicUrl, 'node_getCheckpoints', [number, 1]);
          return c?.checkpoint.archive.root;
        }),
      );
      expect(new Set(hashes).size).toBe(1);
    },
    scaled(240_000),
  );
});
