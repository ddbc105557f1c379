import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { createPublicClient, type Hex, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { anvilAccounts } from '../../src/daemon/l1/anvil-accounts.js';
import { devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';
import { keystoreDir, keystoreV1, testAddress } from '../unit/daemon/validators/validator-fixtures.js';

/**
 * A committee spread over nodes that settles on one real L1 (issue 28): the bootstrap node runs anvil
 * (`--l1 anvil`, deploying Aztec 4.1.2's L1 contracts) and holds no attester; three validator nodes attach to
 * that anvil (`--l1-rpc-urls`, `--registry-address`), each with its own attester of the three-member committee
 * and its own publisher account; a fifth node only follows. Each validator node proposes to the rollup the
 * checkpoints of its own slots, with the quorum gathered over gossip; the others record them once the rollup
 * holds them.
 */
const PAYER = new AztecAddress(0x5002n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const TXS = 10;
const MEMBERS = [0, 1, 2].map(testAddress);
const COMMON = [
  ...['--prefunded-accounts', prefundedFlag(FUNDED)],
  '--disable-admin-api-key',
  ...['--p2p-enabled', '--p2p-port', '0', '--p2p-listen-address', '127.0.0.1'],
  // One block per slot (its checkpoint goes to L1 right after it), every slot. Slots of 24 s: building,
  // attesting over gossip and landing on anvil take 10 to 15 s on a loaded two-core machine.
  ...['--blocks-per-slot', '1', '--min-txs-per-block', '0', '--sequencer-mode', 'on-demand'],
];

interface Tips {
  proposed: { number: number; hash: string };
  checkpointed: { block: { number: number; hash: string }; checkpoint: { number: number } };
  proven: { checkpoint: { number: number } };
}
interface PublishedCheckpoint {
  checkpoint: { number: number; archive: { root: string } };
  l1: { blockNumber: string | number };
}

let anvilNode: RunningNode;
const validators: RunningNode[] = [];
let plain: RunningNode;
let keystores: ReturnType<typeof keystoreDir>[] = [];
let l1: PublicClient;
let rollup: Hex;

const all = () => [anvilNode, ...validators, plain];
const tips = (n: RunningNode) => result<Tips>(n.publicUrl, 'node_getL2Tips');
/**
 * A poll that reads again when a kept-alive connection was reset under it (a node under load closes idle
 * connections as the next request goes out); any other failure fails the test.
 */
const rereading =
  <T>(read: () => Promise<T | undefined>) =>
  async (): Promise<T | undefined> => {
    try {
      return await read();
    } catch (err) {
      if ((err as Error).message === 'fetch failed') return undefined;
      throw err;
    }
  };
const readRollup = <T>(functionName: string, args: readonly unknown[] = []) =>
  l1.readContract({
    address: rollup,
    abi: RollupAbi,
    functionName: functionName as never,
    args: args as never,
  }) as Promise<T>;

beforeAll(async () => {
  keystores = [0, 1, 2].map((i) => {
    const ks = keystoreDir();
    ks.write('v.json', keystoreV1([i]));
    return ks;
  });
  const others = (i: number) => MEMBERS.filter((_, j) => j !== i).join(',');
  anvilNode = await spawnNode({
    readyTimeoutMs: scaled(150_000),
    args: [
      ...COMMON,
      '--log-level',
      'debug',
      ...['--l1', 'anvil', '--slot-duration', '24', '--epoch-duration', '2', '--proof-delay', '1'],
      ...['--committee-addresses', MEMBERS.join(',')],
    ],
  });
  const status = (await (await fetch(`${anvilNode.publicUrl}/status`)).json()) as { l1: { rpcUrl: string } };
  const anvilUrl = status.l1.rpcUrl;
  l1 = createPublicClient({ transport: http(anvilUrl), cacheTime: 0 }) as PublicClient;
  const addresses = await result<Record<string, string>>(anvilNode.publicUrl, 'node_getL1ContractAddresses');
  rollup = addresses.rollupAddress as Hex;
  const enr = await result<string>(anvilNode.publicUrl, 'node_getEncodedEnr');
  const attach = ['--l1-rpc-urls', anvilUrl, '--registry-address', addresses.registryAddress as string];
  const accounts = anvilAccounts();
  const started = await Promise.all([
    ...[0, 1, 2].map((i) =>
      spawnNode({
        readyTimeoutMs: scaled(150_000),
        args: [
          ...COMMON,
          ...attach,
          // Its own publisher: anvil's account i + 1 (the first deployed the contracts from the bootstrap node).
          '--log-level',
          'debug',
          ...['--l1-deployer-private-key', accounts[i + 1]?.privateKey as string],
          ...['--keystore-directory', (keystores[i] as ReturnType<typeof keystoreDir>).dir],
          ...['--committee-addresses', others(i)],
          ...['--bootstrap-nodes', enr],
        ],
      }),
    ),
    spawnNode({
      readyTimeoutMs: scaled(150_000),
      args: [
        ...COMMON,
        '--log-level',
        'debug',
        ...attach,
        '--committee-addresses',
        MEMBERS.join(','),
        '--bootstrap-nodes',
        enr,
      ],
    }),
  ]);
  validators.push(...started.slice(0, 3));
  plain = started[3] as RunningNode;
}, scaled(420_000));

afterAll(async () => {
  await Promise.all(all().map((n) => n?.stop()));
  for (const ks of keystores) ks.cleanup();
});

describe('a committee of three validator nodes settling on one anvil', () => {
  it('every node is on the same gossip topics: the same version string, from the same rollup', async () => {
    const versions = await Promise.all(all().map((n) => result<number>(n.publicUrl, 'node_getVersion')));
    expect(new Set(versions).size).toBe(1);
    await until(
      'the bootstrap node to have handshaken with the four others',
      async () => {
        const peers = await result<{ status?: unknown }[]>(anvilNode.adminUrl, 'nodeAdmin_getPeers');
        return peers.filter((p) => p.status).length >= 4 ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
  });

  it(
    "txs sent to different nodes are mined; the rollup's checkpoints are every node's, with the same tips and roots",
    async () => {
      const version = await result<number>(anvilNode.publicUrl, 'node_getVersion');
      const builder = devTxBuilder(genesisHeader(FUNDED), BigInt(version));
      const minFee = BigInt(
        (await result<{ feePerL2Gas: string }>(anvilNode.publicUrl, 'node_getCurrentMinFees')).feePerL2Gas,
      );
      const sent: string[] = [];
      for (let i = 0; i < TXS; i++) {
        const tx = builder.build({
          feePayer: PAYER,
          txRequestHash: new Fr(BigInt(i) + 8_000_000n),
          maxFeesPerGas: new GasFees(0n, 10n * minFee),
        });
        await result(all()[i % all().length]?.publicUrl as string, 'node_sendTx', [tx.toJSON()]);
        sent.push(tx.txHash.toString());
      }
      await until(
        'every tx checkpointed on every node',
        rereading(async () => {
          for (const n of all()) {
            const receipts = await Promise.all(
              sent.map((h) => result<{ status: string }>(n.publicUrl, 'node_getTxReceipt', [h])),
            );
            if (receipts.some((r) => !['checkpointed', 'proven', 'finalized'].includes(r.status))) return undefined;
          }
          return true;
        }),
        { timeoutMs: 180_000, intervalMs: 1_000 },
      );
      // Every validator node proposed some of them: slot s is proposed by member s mod 3, on its own node.
      const l1Tips = await until(
        'the same checkpointed tip on every node, and on the rollup',
        rereading(async () => {
          const t = await Promise.all(all().map(tips));
          const first = t[0] as Tips;
          const pending = Number(await readRollup<bigint>('getPendingCheckpointNumber'));
          const same = t.every((x) => x.checkpointed.block.hash === first.checkpointed.block.hash);
          // A few checkpoints, one at least from each validator node's own slots.
          const each = validators.every((v) => v.logs().some((l) => /^published checkpoint \d+/.test(l.msg ?? '')));
          return same && each && pending >= 3 && pending === first.checkpointed.checkpoint.number ? first : undefined;
        }),
        { timeoutMs: 150_000, intervalMs: 500 },
      );
      const last = l1Tips.checkpointed.checkpoint.number;
      expect(last).toBeGreaterThanOrEqual(3);
      for (let n = 1; n <= last; n++) {
        const onL1 = (await readRollup<Hex>('archiveAt', [BigInt(n)])).toLowerCase();
        for (const node of all()) {
          const [c] = await result<PublishedCheckpoint[]>(node.publicUrl, 'node_getCheckpoints', [n, 1]);
          expect(c?.checkpoint.archive.root, `checkpoint ${n} on ${node.publicUrl}`).toBe(onL1);
        }
      }
      const lastBlock = l1Tips.checkpointed.block.number;
      const headers = await Promise.all(
        all().map((n) => result<{ state: unknown }>(n.publicUrl, 'node_getBlockHeader', [lastBlock])),
      );
      for (const h of headers) expect(h).toEqual(headers[0]);
      // Each checkpoint on the rollup was proposed from the publisher of the node holding its slot's proposer key
      // (member slot mod 3 of the address-sorted committee; validator node i holds attester i and publishes from
      // anvil account i + 1); the bootstrap and plain nodes published nothing.
      const sorted = [...MEMBERS].sort();
      const events = await l1.getContractEvents({
        address: rollup,
        abi: RollupAbi,
        eventName: 'CheckpointProposed',
        fromBlock: 0n,
      });
      expect(events.length).toBeGreaterThanOrEqual(last);
      for (const e of events) {
        const n = (e.args as { checkpointNumber: bigint }).checkpointNumber;
        const stored = await readRollup<{ slotNumber: bigint }>('getCheckpoint', [n]);
        const proposer = sorted[Number(stored.slotNumber % 3n)] as string;
        const from = (await l1.getTransaction({ hash: e.transactionHash as Hex })).from.toLowerCase();
        expect(from, `the publisher of checkpoint ${n}`).toBe(anvilAccounts()[MEMBERS.indexOf(proposer) + 1]?.address);
      }
      for (const n of [anvilNode, plain]) {
        expect(n.logs().some((l) => /^published checkpoint/.test(l.msg ?? ''))).toBe(false);
      }
    },
    scaled(420_000),
  );

  it('an epoch is proven by one node: every node reads the same proven tip from the rollup', async () => {
    const proven = await until(
      'an epoch proven on the rollup and on every node',
      rereading(async () => {
        const onL1 = Number(await readRollup<bigint>('getProvenCheckpointNumber'));
        if (onL1 < 1) return undefined;
        const t = await Promise.all(all().map(tips));
        return t.every((x) => x.proven.checkpoint.number >= onL1) ? onL1 : undefined;
      }),
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(proven).toBeGreaterThanOrEqual(1);
    // Each epoch's proof is sent by one node (the one holding the proposer key of the epoch's last slot).
    const proofs = all().flatMap((n) =>
      n
        .logs()
        .filter((l) => /^epoch \d+ .*proof landed on L1/.test(l.msg ?? ''))
        .map((l) => l.epoch),
    );
    expect(proofs.length).toBeGreaterThanOrEqual(1);
    expect(new Set(proofs).size).toBe(proofs.length);
    for (const n of [anvilNode, plain]) {
      expect(n.logs().some((l) => /^epoch \d+ .*proof/.test(l.msg ?? ''))).toBe(false);
    }
  });

  it('no node logged an error, and none proposed a checkpoint of a slot not its own', () => {
    for (const n of all()) {
      const errors = n.logs().filter((l) => (l.level ?? 0) >= 50);
      expect(errors.map((l) => l.msg)).toEqual([]);
    }
    // A proposal that failed on L1 is always its own slot's (one the load made late): the node built it.
    for (const n of all()) {
      const built = new Set(
        n
          .logs()
          .filter((l) => /^built block/.test(l.msg ?? ''))
          .map((l) => l.checkpoint),
      );
      const attempts = n.logs().filter((l) => l.kind === 'propose' && typeof l.checkpoint === 'number');
      for (const a of attempts) expect(built.has(a.checkpoint), String(a.msg)).toBe(true);
    }
  });
});
