import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { FEE_JUICE_ADDRESS, FEE_JUICE_BALANCES_SLOT } from '../../src/core/constants.js';
import { ContractClassPublishedEvent } from '../../src/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../src/core/contract/public-keys.js';
import { Fr, toHex64 } from '../../src/core/fr.js';
import { deriveStorageSlotInMap } from '../../src/core/hash/siloing.js';
import { TEST_ACCOUNTS } from '../../src/core/test-accounts.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { type CliRun, type Envelope, envelopeOf, l2node, shapeOf } from '../helpers/cli.js';
import { QUICK_EPOCH_FLAGS, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

/**
 * Every `query` command (and `status`, `rpc`, `tx`) run as the real binary against one spawned dev node, in
 * human and --json form: exit codes, what the human view shows, and the shape of each --json result
 * (snapshots). The chain is filled through the CLI itself: a tx publishing a contract class and instance, a tx
 * with a note hash, nullifier, private log and L2-to-L1 message, and an L1-to-L2 message.
 *
 * The cases of a describe block run a few at a time (each mostly waits for its CLI processes); the blocks run one
 * after another, so the cases that add to the chain (the last two blocks) never run beside those that read it.
 */
let node: RunningNode;
let env: Record<string, string>;
let dir: string;

const CLASS = {
  artifactHash: new Fr(0xa1n),
  privateFunctionsRoot: new Fr(0xa2n),
  packedBytecode: Buffer.from('c0ffee', 'hex'),
};
const CLASS_ID = ContractClassPublishedEvent.create(
  CLASS.artifactHash,
  CLASS.privateFunctionsRoot,
  CLASS.packedBytecode,
).contractClassId.toString();
const INSTANCE = TxBuilder.instanceAddress({
  salt: new Fr(0x5a17n),
  contractClassId: Fr.fromString(CLASS_ID),
  initializationHash: new Fr(0x1217n),
  publicKeys: PublicKeys.default(),
  deployer: AztecAddress.ZERO,
}).toString();
const NOTE_HASH = toHex64(0x1001n);
const NULLIFIER = toHex64(0x3001n);
const TAG = toHex64(0x7a6n);
const L1_MESSAGE = toHex64(0x2c5f9b1d2a7en);
let deployTx: string;
let effectsTx: string;
let effectsBlock: number;
let effectsBlockHash: string;

const cli = (args: readonly string[], input?: string) => l2node(args, { env, input });
/** A case shares the cores with the others of its block that run beside it: more time than one alone needs. */
const CASE_TIMEOUT_MS = scaled(90_000);

/** Runs a command in human and --json form; both must exit `code`, and the envelope's status is that code. */
async function both(args: readonly string[], code = 0): Promise<{ human: CliRun; json: Envelope }> {
  const [human, jsonRun] = await Promise.all([cli(args), cli([...args, '--json'])]);
  expect(human.code, `${args.join(' ')}\n${human.stderr}`).toBe(code);
  expect(jsonRun.code, jsonRun.stderr).toBe(code);
  const json = envelopeOf(jsonRun);
  expect(json.status).toBe(code);
  if (code === 0) {
    expect(json.warnings).toEqual([]);
    expect(human.stdout.length).toBeGreaterThan(0);
  } else {
    // Human errors go to stderr as "l2node <command>: <message>", the envelope carries the same message.
    expect(human.stderr).toMatch(new RegExp(`^l2node ${args[0]}( [a-z-]+)*: `));
    expect(human.stderr).toContain(json.error?.message);
  }
  return { human, json };
}

beforeAll(async () => {
  node = await spawnNode({
    args: ['--sequencer-mode', 'on-demand', '--slot-duration', '2', ...QUICK_EPOCH_FLAGS],
  });
  env = { NODE_URL: node.publicUrl, NODE_ADMIN_URL: node.adminUrl };
  dir = mkdtempSync(join(tmpdir(), 'l2node-cli-query-'));
  const deploy = join(dir, 'deploy.json');
  const built = await cli([
    'tx',
    'build',
    '--publish-class',
    `${CLASS.artifactHash}:${CLASS.privateFunctionsRoot}:c0ffee`,
    '--publish-instance',
    `0x5a17:${CLASS_ID}:0x1217`,
    '--seed',
    '0x9001',
    '--out',
    deploy,
  ]);
  expect(built.code, built.stderr).toBe(0);
  const sent = envelopeOf(await cli(['tx', 'send', deploy, '--wait', 'proposed', '--json']));
  expect(sent.status, JSON.stringify(sent.error)).toBe(0);
  deployTx = (sent.result as { txHash: string }).txHash;
  // Built and sent through a pipe, as a script would.
  const tx = await cli([
    'tx',
    'build',
    '--note-hash',
    NOTE_HASH,
    '--nullifier',
    NULLIFIER,
    '--private-log',
    `${TAG},0x01,0x02`,
    '--l2-to-l1-message',
    '0x000000000000000000000000000000000000beef:0x05',
    '--seed',
    '0x9002',
  ]);
  expect(tx.code, tx.stderr).toBe(0);
  const sent2 = envelopeOf(await cli(['tx', 'send', '-', '--wait', 'proposed', '--json'], tx.stdout));
  expect(sent2.status, JSON.stringify(sent2.error)).toBe(0);
  effectsTx = (sent2.result as { txHash: string }).txHash;
  const receipt = (sent2.result as { receipt: { blockNumber: number; blockHash: string } }).receipt;
  effectsBlock = receipt.blockNumber;
  effectsBlockHash = receipt.blockHash;
  const message = envelopeOf(await cli(['admin', 'send-l1-message', L1_MESSAGE, '--json']));
  expect(message.status, JSON.stringify(message.error)).toBe(0);
  await until(
    'the L1-to-L2 message in a block',
    async () => {
      const m = envelopeOf(await cli(['query', 'messages', '--l1-to-l2', L1_MESSAGE, '--json']));
      return (m.result as { block: number | null }).block ?? undefined;
    },
    { intervalMs: 200 },
  );
});

afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('query block, blocks, header, tips', { timeout: CASE_TIMEOUT_MS }, () => {
  it('query block <number> shows the header, hash and txs; --json is the L2Block', async ({ expect }) => {
    const { human, json } = await both(['query', 'block', String(effectsBlock)]);
    expect(human.stdout).toMatch(new RegExp(`^block\\s+${effectsBlock}$`, 'm'));
    expect(human.stdout).toContain(effectsTx.slice(0, 10));
    expect(human.stdout).not.toContain(effectsTx);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query block <hash> and --full show whole hashes', async ({ expect }) => {
    const { human, json } = await both(['query', 'block', effectsBlockHash, '--full']);
    expect(human.stdout).toContain(effectsBlockHash);
    expect(human.stdout).toContain(effectsTx);
    expect(
      (json.result as { header: { globalVariables: { blockNumber: number } } }).header.globalVariables.blockNumber,
    ).toBe(effectsBlock);
  });

  it('query block of a block the chain does not have exits 4, naming the latest block', async ({ expect }) => {
    const { human, json } = await both(['query', 'block', '99999'], 4);
    expect(json.error?.code).toBe('NOT_FOUND');
    expect(human.stderr).toMatch(/block 99999 is not on the chain of .* \(its latest block is \d+\)/);
    expect(human.stderr).toContain('l2node query tips');
  });

  it('query block with a malformed argument exits 2', async ({ expect }) => {
    const { json } = await both(['query', 'block', 'yesterday'], 2);
    expect(json.error?.message).toMatch(/"yesterday" is not a block number, "latest" or a block hash/);
  });

  it('query blocks lists one line per block', async ({ expect }) => {
    const { human, json } = await both(['query', 'blocks', '--from', '1', '--limit', '2']);
    expect(human.stdout.split('\n')[0]).toMatch(/^BLOCK\s+HASH\s+SLOT/);
    expect(human.stdout).toMatch(/^1\s+0x/m);
    expect((json.result as unknown[]).length).toBe(2);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query header 0 is the genesis header', async ({ expect }) => {
    const { human, json } = await both(['query', 'header', '0']);
    expect(human.stdout).toMatch(/^block\s+0$/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query tips shows the four tips', async ({ expect }) => {
    const { human, json } = await both(['query', 'tips']);
    for (const tip of ['proposed', 'checkpointed', 'proven', 'finalized'])
      expect(human.stdout).toMatch(new RegExp(`^${tip}\\s+\\d+`, 'm'));
    expect(shapeOf(json.result)).toMatchSnapshot();
  });
});

describe.concurrent('query tx, receipt, effect, pending', { timeout: CASE_TIMEOUT_MS }, () => {
  it('query tx summarises a tx the pool knows; --json is the Tx', async ({ expect }) => {
    const { human, json } = await both(['query', 'tx', effectsTx]);
    expect(human.stdout).toMatch(/^fee payer\s+0x/m);
    expect(human.stdout).toContain('1 note hashes');
    expect((json.result as { txHash: string }).txHash).toBe(effectsTx);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query tx of an unknown hash exits 4 and points at receipts', async ({ expect }) => {
    const { human } = await both(['query', 'tx', toHex64(0xdeadn)], 4);
    expect(human.stderr).toContain('l2node query receipt');
  });

  it('query receipt shows status, block and fee', async ({ expect }) => {
    const { human, json } = await both(['query', 'receipt', effectsTx]);
    expect(human.stdout).toMatch(/^status\s+(proposed|checkpointed|proven|finalized)$/m);
    expect(human.stdout).toMatch(new RegExp(`^block\\s+${effectsBlock}$`, 'm'));
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query effect lists the side effects of a mined tx', async ({ expect }) => {
    const { human, json } = await both(['query', 'effect', effectsTx, '--full']);
    expect(human.stdout).toContain(NOTE_HASH);
    expect(human.stdout).toContain(NULLIFIER);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query effect of a tx in no block exits 4', async () => {
    await both(['query', 'effect', toHex64(0xdeadn)], 4);
  });

  it('query pending shows the count and the page of txs', async ({ expect }) => {
    const { human, json } = await both(['query', 'pending', '--limit', '5']);
    expect(human.stdout).toMatch(/^\d+ pending txs?$/m);
    expect(json.result).toMatchObject({ count: expect.any(Number), txs: expect.any(Array) });
  });

  it('query pending --hashes prints one full tx hash per line for scripts', async ({ expect }) => {
    const [human, jsonRun] = await Promise.all([
      cli(['query', 'pending', '--hashes']),
      cli(['query', 'pending', '--hashes', '--json']),
    ]);
    expect(human.code, human.stderr).toBe(0);
    const { count, txHashes } = envelopeOf(jsonRun).result as { count: number; txHashes: string[] };
    expect(txHashes).toHaveLength(Math.min(count, 100));
    for (const h of txHashes) expect(h).toMatch(/^0x[0-9a-f]{64}$/);
    // Nothing but hashes on stdout: `l2node query pending --hashes | xargs -n1 l2node query receipt` works.
    for (const line of human.stdout.split('\n').filter((l) => l !== '')) expect(line).toMatch(/^0x[0-9a-f]{64}$/);
    expect(human.stdout).not.toMatch(/pending tx/);
  });
});

describe.concurrent('state, trees and witnesses', { timeout: CASE_TIMEOUT_MS }, () => {
  it('query storage reads the fee payer balance of the FeeJuice contract', async ({ expect }) => {
    const slot = toHex64(deriveStorageSlotInMap(FEE_JUICE_BALANCES_SLOT, TEST_ACCOUNTS[0].address.value));
    const { human, json } = await both(['query', 'storage', toHex64(FEE_JUICE_ADDRESS), slot]);
    const balance = BigInt(json.result as string);
    // 10^22 at genesis, less the fees of the two txs it paid.
    expect(balance).toBeGreaterThan(0n);
    expect(balance).toBeLessThan(10n ** 22n);
    expect(human.stdout).toMatch(new RegExp(`^decimal\\s+${balance}$`, 'm'));
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query leaves finds a note hash and says which values are absent', async ({ expect }) => {
    const { human, json } = await both(['query', 'leaves', 'note-hash', NOTE_HASH, toHex64(0x999n)]);
    expect(human.stdout).toMatch(/absent/);
    const [found, absent] = json.result as ({ l2BlockNumber: number } | null)[];
    expect(found?.l2BlockNumber).toBe(effectsBlock);
    expect(absent).toBeNull();
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query leaves with an unknown tree exits 2 listing the trees', async ({ expect }) => {
    const { json } = await both(['query', 'leaves', 'notes', NOTE_HASH], 2);
    expect(json.error?.message).toMatch(/note-hash \(1\)/);
  });

  it('query witness note-hash proves membership', async ({ expect }) => {
    const { json } = await both(['query', 'witness', 'note-hash', NOTE_HASH]);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query witness nullifier --low gives the low leaf of an absent nullifier; without --low it exits 4', async ({
    expect,
  }) => {
    const { json } = await both(['query', 'witness', 'nullifier', toHex64(0x3002n), '--low']);
    expect(shapeOf(json.result)).toMatchSnapshot();
    const missing = await both(['query', 'witness', 'nullifier', toHex64(0x3002n)], 4);
    expect(missing.human.stderr).toContain('--low');
  });

  it('query witness archive proves a block hash; --leaf-index gives a sibling path', async ({ expect }) => {
    const { json } = await both(['query', 'witness', 'archive', effectsBlockHash]);
    expect(shapeOf(json.result)).toMatchSnapshot();
    const path = await both(['query', 'witness', 'note-hash', '--leaf-index', '0']);
    expect(shapeOf(path.json.result)).toMatchSnapshot();
  });

  it('query witness l1-to-l2 proves the message', async ({ expect }) => {
    const { json } = await both(['query', 'witness', 'l1-to-l2', L1_MESSAGE]);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });
});

describe.concurrent('messages, logs, tags', { timeout: CASE_TIMEOUT_MS }, () => {
  it('query messages <block> lists the L2-to-L1 messages per tx', async ({ expect }) => {
    const { human, json } = await both(['query', 'messages', String(effectsBlock)]);
    expect(human.stdout).toMatch(/^TX\s+#\s+MESSAGE/);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query messages --l1-to-l2 says where an L1-to-L2 message stands', async ({ expect }) => {
    const { human, json } = await both(['query', 'messages', '--l1-to-l2', L1_MESSAGE]);
    expect(human.stdout).toMatch(/^synced\s+yes$/m);
    expect(json.result).toMatchObject({ synced: true, checkpoint: expect.any(Number), block: expect.any(Number) });
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query logs --kind class finds the class publication log', async ({ expect }) => {
    const { human, json } = await both(['query', 'logs', '--kind', 'class', '--tx', deployTx]);
    expect(human.stdout).toMatch(/^BLOCK\s+TX\s+LOG/);
    expect((json.result as { logs: unknown[] }).logs.length).toBe(1);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query logs (public) answers no logs for a chain without public calls', async ({ expect }) => {
    const { human, json } = await both(['query', 'logs', '--from-block', '1']);
    expect(human.stdout).toContain('No logs match.');
    expect(json.result).toEqual({ logs: [], maxLogsHit: false });
  });

  it('query logs --kind private lists private logs by block range', async ({ expect }) => {
    const { human, json } = await both([
      'query',
      'logs',
      '--kind',
      'private',
      '--from-block',
      String(effectsBlock),
      '--to-block',
      String(effectsBlock),
    ]);
    expect(human.stdout).toContain(TAG.slice(0, 10));
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query logs refuses filters that do not apply (exit 2)', async () => {
    await both(['query', 'logs', '--kind', 'private', '--tag', TAG], 2);
  });

  it('query tags finds the logs carrying a tag', async ({ expect }) => {
    const { human, json } = await both(['query', 'tags', TAG, toHex64(0x7a7n)]);
    expect(human.stdout).toContain('no logs');
    const [hit, miss] = json.result as unknown[][];
    expect(hit?.length).toBe(1);
    expect(miss).toEqual([]);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });
});

describe.concurrent('contracts, node, fees, validators', { timeout: CASE_TIMEOUT_MS }, () => {
  it('query contract shows the published instance', async ({ expect }) => {
    const { human, json } = await both(['query', 'contract', INSTANCE, '--full']);
    expect(human.stdout).toContain(CLASS_ID);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query contract of an unpublished address exits 4', async () => {
    await both(['query', 'contract', toHex64(0x1234n)], 4);
  });

  it('query class shows the published class', async ({ expect }) => {
    const { human, json } = await both(['query', 'class', CLASS_ID]);
    expect(human.stdout).toMatch(/^packed bytecode\s+3 bytes$/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query class of an unknown id exits 4', async () => {
    await both(['query', 'class', toHex64(0x1234n)], 4);
  });

  it('query node-info shows versions and contract addresses', async ({ expect }) => {
    const { human, json } = await both(['query', 'node-info']);
    expect(human.stdout).toMatch(/^l1 chain id\s+31337$/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('query fees shows the minimum fees', async ({ expect }) => {
    const { human, json } = await both(['query', 'fees']);
    expect(human.stdout).toMatch(/^min fee per L2 gas\s+\d+$/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  // No validator service yet: the node answers "not available yet", which the commands print and exit 1 on.
  // Once the service lands, they answer (exit 0) and the snapshot of their shape is to be recorded.
  it.each([
    [['query', 'validators']],
    [['query', 'validator', '0x1234567890abcdef1234567890abcdef12345678', '--from-slot', '1', '--to-slot', '9']],
  ])('%j prints the node answer, or its "not available" error with exit 1', async (args) => {
    const run = await cli([...args, '--json']);
    const json = envelopeOf(run);
    if (run.code === 1) {
      expect(json.error).toMatchObject({
        code: 'NOT_AVAILABLE',
        message: expect.stringMatching(/is not available yet/),
      });
      const human = await cli(args);
      expect(human.code).toBe(1);
      expect(human.stderr).toMatch(/is not available yet/);
    } else {
      expect([0, 4]).toContain(run.code);
    }
  });

  it('query validator with a malformed address exits 2 before calling the node', async () => {
    await both(['query', 'validator', '0x12'], 2);
  });
});

describe.concurrent('status and rpc', { timeout: CASE_TIMEOUT_MS }, () => {
  it('status shows the node, the chain and that the saved admin key is accepted', async ({ expect }) => {
    const { human, json } = await both(['status']);
    expect(human.stdout).toMatch(/^node\s+http:\/\/127\.0\.0\.1:\d+\s+ok, ready for txs$/m);
    expect(human.stdout).toMatch(/^admin\s+.*reachable, saved API key accepted$/m);
    expect(json.result).toMatchObject({ admin: { reachable: true, keySource: 'saved', keyAccepted: true } });
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('status with a wrong key warns that the admin listener refuses it', async ({ expect }) => {
    const run = await l2node(['status', '--json'], { env: { ...env, NODE_ADMIN_API_KEY: 'f'.repeat(64) } });
    expect(run.code).toBe(0);
    const json = envelopeOf(run);
    expect(json.result).toMatchObject({ admin: { keySource: 'given', keyAccepted: false } });
    expect(json.warnings[0]).toMatch(/refuses the given API key: run `l2node admin login`/);
  });

  it('rpc calls any method; --json wraps the result', async ({ expect }) => {
    const { human, json } = await both(['rpc', 'node_getBlockHeader', String(effectsBlock)]);
    expect(JSON.parse(human.stdout)).toEqual(json.result);
    const list = await both(['rpc']);
    expect(list.human.stdout).toMatch(/^node_getBlocks from limit {2}-> L2Block\[\]$/m);
    expect(shapeOf(list.json.result)).toMatchSnapshot();
  });

  it('rpc sends admin methods with the saved key', async ({ expect }) => {
    const run = await cli(['rpc', 'nodeDev_sendL1ToL2Message', toHex64(0x77n)]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ index: expect.any(String) });
  });

  it('rpc with params the node refuses exits 2 with the node message', async ({ expect }) => {
    const { json } = await both(['rpc', 'node_getBlocks', '0', '5'], 2);
    expect(json.error?.code).toBe('INVALID_PARAMS');
  });
});

describe.concurrent('tx', { timeout: CASE_TIMEOUT_MS }, () => {
  it('tx build prints a Tx JSON (human) or {txHash, tx} (--json)', async ({ expect }) => {
    const { human, json } = await both(['tx', 'build', '--note-hash', '0x42', '--seed', '0x77']);
    const tx = JSON.parse(human.stdout) as { txHash: string };
    expect(human.stderr).toContain(`built tx ${tx.txHash}`);
    expect((json.result as { txHash: string }).txHash).toBe(tx.txHash);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('tx build with a malformed effect exits 2 naming the flag', async ({ expect }) => {
    const { json } = await both(['tx', 'build', '--l2-to-l1-message', 'beef'], 2);
    expect(json.error?.message).toMatch(/--l2-to-l1-message "beef": expected recipient:content\[:sender\]/);
  });

  it('tx send of a tx already mined is refused with the node reason (exit 1)', async ({ expect }) => {
    const file = join(dir, 'again.json');
    const built = await cli(['tx', 'build', '--seed', '0x9002', '--note-hash', NOTE_HASH, '--out', file]);
    expect(built.code).toBe(0);
    const { json } = await both(['tx', 'send', file], 1);
    expect(json.error?.code).toMatch(/^(TX_INVALID|NULLIFIER_CONFLICT|TX_REJECTED)$/);
    expect(json.error?.data).toMatchObject({ code: expect.any(Number) });
  });

  it('tx send of a file that is not a tx exits 2', async ({ expect }) => {
    const file = join(dir, 'not-a-tx.json');
    writeFileSync(file, '{"hello": 1}');
    const { json } = await both(['tx', 'send', file], 2);
    expect(json.error?.message).toContain('holds no Tx');
  });

  it('tx send then tx wait --until checkpointed', async ({ expect }) => {
    const built = await cli(['tx', 'build', '--nullifier', '0x4242', '--json']);
    const sent = await cli(['tx', 'send', '-', '--json'], built.stdout);
    const hash = (envelopeOf(sent).result as { txHash: string }).txHash;
    expect(shapeOf(envelopeOf(sent).result)).toMatchSnapshot();
    const { human, json } = await both(['tx', 'wait', hash, '--until', 'checkpointed', '--max-wait', '60']);
    expect(human.stdout).toMatch(/^status\s+(checkpointed|proven|finalized)$/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('tx wait for a hash the node never saw exits 4', async () => {
    await both(['tx', 'wait', toHex64(0xbadn), '--max-wait', '5'], 4);
  });
});
