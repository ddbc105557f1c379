import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAztecNodeClient } from '@aztec/stdlib/interfaces/client';
import { TxHash as StdTxHash } from '@aztec/stdlib/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { GlobalVariables } from '../../src/core/block/global-variables.js';
import { NULL_MSG_SENDER_CONTRACT_ADDRESS } from '../../src/core/constants.js';
import { ContractInstancePublishedEvent } from '../../src/core/contract/contract-instance-published-event.js';
import { PublicKeys } from '../../src/core/contract/public-keys.js';
import { Fr } from '../../src/core/fr.js';
import { Gas } from '../../src/core/gas/gas.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { ContractClassLogFields } from '../../src/core/logs/contract-class-log-fields.js';
import type { PrivateLog } from '../../src/core/logs/private-log.js';
import type { Tx } from '../../src/core/tx/tx.js';
import type { TxBuilder, TxBuildOptions } from '../../src/core/tx/tx-builder.js';
import { TxBuilder as Builder } from '../../src/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../src/daemon/config/published-chain-values.js';
import { DEFAULT_ALLOWED_SETUP_FUNCTIONS } from '../../src/daemon/mempool/tx-checks/default-allowed-setup.js';
import { TX_ERROR } from '../../src/daemon/mempool/tx-checks/tx-error-texts.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag } from '../helpers/mempool-e2e.js';
import { withClassLogFields, withClassLogLength, withPublicCalls } from '../helpers/mempool-txs.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';

/**
 * Every validator reason over RPC (docs/aztec-facts.md section 5.2): each tx breaks one rule and goes through
 * node_isValidTx (TxValidationResult) and node_sendTx (-32004 TX_INVALID with data.reasons). The reasons
 * RPC cannot reach are covered in test/unit/daemon/mempool/tx-checks.test.ts: a wrong claimed tx hash (JSON
 * txs are always rehashed, as in 4.1.2), an invalid proof (realProofs=false), a failing validator; the
 * expiration needs a chain past block 1 (test/e2e/mempool-chain.test.ts).
 */
const PAYER = new AztecAddress(0x1001n);
/** An extra setup function by instance, from the settings (the class-based kind is in mempool-pool.test.ts). */
const EXTRA = `0x${'00'.repeat(31)}4d`;
let node: RunningNode;
let builder: TxBuilder;
let maxFee: bigint;

beforeAll(async () => {
  const funded = [{ address: PAYER, amount: 10n ** 24n }];
  node = await spawnNode({
    args: [
      '--sequencer-mode',
      'off',
      '--prefunded-accounts',
      prefundedFlag(funded),
      '--rpc-max-body-size',
      '4mb',
      '--tx-public-setup-allow-list-extend',
      `I:${EXTRA}:0x11223344:rn`,
    ],
  });
  builder = devTxBuilder(genesisHeader(funded));
  const fees = (await call(node.publicUrl, 'node_getCurrentMinFees')).result as { feePerL2Gas: string };
  maxFee = 2n * BigInt(fees.feePerL2Gas);
});
afterAll(async () => {
  await node?.stop();
});

let nonce = 0n;
const build = (o: Partial<TxBuildOptions> = {}, b: TxBuilder = builder): Tx =>
  b.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 1_000_000n),
    maxFeesPerGas: new GasFees(0n, maxFee),
    ...o,
  });
const [SET_AUTHORIZED_INTERNAL, SET_AUTHORIZED, INCREASE_BALANCE] = DEFAULT_ALLOWED_SETUP_FUNCTIONS.map(
  (e) => new Fr(BigInt(e.selector.value)),
) as [Fr, Fr, Fr];
const setup = (contract: bigint, sender: bigint, calldata: Fr[]) =>
  withPublicCalls(build(), { setup: [{ contract, sender, calldata }] });
const published = () =>
  build({
    publishContractClass: {
      artifactHash: new Fr(1n),
      privateFunctionsRoot: new Fr(2n),
      packedBytecode: Buffer.alloc(64, 7),
    },
  });
const instance = {
  salt: new Fr(1n),
  contractClassId: new Fr(2n),
  initializationHash: new Fr(3n),
  publicKeys: PublicKeys.default(),
  deployer: AztecAddress.ZERO,
};
const instanceLog = (address: bigint, version: number): PrivateLog =>
  new ContractInstancePublishedEvent(
    new AztecAddress(address),
    version,
    instance.salt,
    instance.contractClassId,
    instance.initializationHash,
    instance.publicKeys,
    instance.deployer,
  ).toLog();

const CASES: [string, () => Tx, string[]][] = [
  [
    'size above 512 KiB',
    () =>
      withClassLogFields(
        build(),
        Array.from({ length: 6 }, () => ContractClassLogFields.fromEmitted([])),
      ),
    [TX_ERROR.SIZE_ABOVE_LIMIT, TX_ERROR.CONTRACT_CLASS_LOG_COUNT],
  ],
  [
    'built for another chain (all four metadata fields)',
    () =>
      build(
        {},
        new Builder({
          ...builder.chain,
          chainId: 1n,
          rollupVersion: 2n,
          vkTreeRoot: new Fr(3n),
          protocolContractsHash: new Fr(4n),
        }),
      ),
    [
      TX_ERROR.INCORRECT_L1_CHAIN_ID,
      TX_ERROR.INCORRECT_ROLLUP_VERSION,
      TX_ERROR.INCORRECT_VK_TREE_ROOT,
      TX_ERROR.INCORRECT_PROTOCOL_CONTRACTS_HASH,
    ],
  ],
  [
    'anchored to a block the node does not have',
    () =>
      build({}, builder.withAnchor(BlockHeader.empty({ globalVariables: GlobalVariables.empty({ blockNumber: 9 }) }))),
    [TX_ERROR.BLOCK_HEADER],
  ],
  [
    'a nullifier twice',
    () => build({ nullifiers: [new Fr(10_001n), new Fr(10_001n)] }),
    [TX_ERROR.DUPLICATE_NULLIFIER_IN_TX],
  ],
  ['a nullifier of the genesis tree', () => build({ nullifiers: [new Fr(5n)] }), [TX_ERROR.EXISTING_NULLIFIER]],
  [
    'gas limits below the fixed cost',
    () => build({ gasLimits: new Gas(95, 6_000_000) }),
    [TX_ERROR.INSUFFICIENT_GAS_LIMIT],
  ],
  ['more L2 gas than processable', () => build({ gasLimits: new Gas(96, 6_540_001) }), [TX_ERROR.GAS_LIMIT_TOO_HIGH]],
  [
    'a setup function not on the allow list',
    () => setup(77n, 1n, [new Fr(0x1234n)]),
    [TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED],
  ],
  [
    'an allowed setup function with the wrong calldata length',
    () => setup(1n, 0x99n, [SET_AUTHORIZED, new Fr(1n)]),
    [TX_ERROR.SETUP_WRONG_CALLDATA_LENGTH],
  ],
  [
    'an only_self setup function called by another contract',
    () => setup(5n, 0x99n, [INCREASE_BALANCE, new Fr(1n), new Fr(1n)]),
    [TX_ERROR.SETUP_ONLY_SELF_WRONG_SENDER],
  ],
  [
    'a setup function called by the null msg sender',
    () => setup(1n, NULL_MSG_SENDER_CONTRACT_ADDRESS, [SET_AUTHORIZED, new Fr(1n), new Fr(1n)]),
    [TX_ERROR.SETUP_NULL_MSG_SENDER],
  ],
  [
    'calldata missing for a public call',
    () => withPublicCalls(build(), { app: [{ contract: 9n, sender: 1n, calldata: [new Fr(1n)], omitCalldata: true }] }),
    [TX_ERROR.CALLDATA_COUNT_MISMATCH],
  ],
  [
    'calldata that is not what the call committed to',
    () => withPublicCalls(build(), { app: [{ contract: 9n, sender: 1n, calldata: [new Fr(1n)], wrongHash: true }] }),
    [TX_ERROR.INCORRECT_CALLDATA],
  ],
  [
    'more than 16,000 calldata fields',
    () =>
      withPublicCalls(build(), {
        app: [{ contract: 9n, sender: 1n, calldata: Array.from({ length: 16_001 }, () => new Fr(1n)) }],
      }),
    [TX_ERROR.SIZE_ABOVE_LIMIT, TX_ERROR.CALLDATA_COUNT_TOO_LARGE],
  ],
  ['a contract class log missing', () => withClassLogFields(published(), []), [TX_ERROR.CONTRACT_CLASS_LOG_COUNT]],
  [
    'a contract class log other than committed',
    () => withClassLogFields(published(), [ContractClassLogFields.fromEmitted([new Fr(9n)])]),
    [TX_ERROR.CONTRACT_CLASS_LOGS],
  ],
  [
    'a contract class log longer than committed',
    () => withClassLogLength(published(), 1),
    [TX_ERROR.CONTRACT_CLASS_LOG_LENGTH],
  ],
  [
    'a contract instance announced at the wrong address',
    () => build({ privateLogs: [instanceLog(12345n, 1)] }),
    [TX_ERROR.INCORRECT_CONTRACT_ADDRESS],
  ],
  [
    'a contract instance event that does not parse',
    () => build({ privateLogs: [instanceLog(12345n, 2)] }),
    [TX_ERROR.MALFORMED_CONTRACT_INSTANCE_LOG],
  ],
];

describe('validation over RPC: one reason per rule', () => {
  it.each(CASES)('%s', async (_name, make, reasons) => {
    const json = make().toJSON();
    const [valid, sent] = await Promise.all([
      call(node.publicUrl, 'node_isValidTx', [json]),
      call(node.publicUrl, 'node_sendTx', [json]),
    ]);
    expect(valid.result).toEqual({ result: 'invalid', reason: reasons });
    if (reasons[0] === TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED) return; // its details: the next case
    expect(sent.error).toEqual({
      code: -32004,
      message: `Invalid tx: ${reasons.join(', ')}`,
      data: { code: 'TX_INVALID', reasons },
    });
  });

  it("a setup call off the allow list: 4.1.2's reason, and the contract, function and entry that would allow it", async () => {
    const contract = `0x${77n.toString(16).padStart(64, '0')}`;
    const sent = await call(node.publicUrl, 'node_sendTx', [setup(77n, 1n, [new Fr(0x1234n)]).toJSON()]);
    const detail =
      `setup call to function (selector 0x00001234) of contract ${contract} is not on the allow list; ` +
      `allow it with --tx-public-setup-allow-list-extend I:${contract}:0x00001234`;
    expect(sent.error).toEqual({
      code: -32004,
      message: `Invalid tx: ${TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED} (${detail})`,
      data: { code: 'TX_INVALID', reasons: [TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED], details: [detail] },
    });
  });

  it('finds public calls valid, a setup function of the settings extension (instance entry) included', async () => {
    const app = withPublicCalls(build(), { app: [{ contract: 9n, sender: 1n, calldata: [new Fr(1n)] }] });
    for (const t of [app, setup(0x4dn, 1n, [new Fr(0x11223344n)])]) {
      expect((await call(node.publicUrl, 'node_isValidTx', [t.toJSON()])).result).toEqual({ result: 'valid' });
    }
  });

  it('a fee payer without FeeJuice: invalid for isValidTx, INSUFFICIENT_FEE_PAYER_BALANCE with figures for sendTx', async () => {
    const json = build({ feePayer: new AztecAddress(0xdeadn) }).toJSON();
    expect((await call(node.publicUrl, 'node_isValidTx', [json])).result).toEqual({
      result: 'invalid',
      reason: [TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE],
    });
    const sent = await call(node.publicUrl, 'node_sendTx', [json]);
    const error = sent.error as { code: number; data: Record<string, string> };
    expect(error).toMatchObject({
      code: -32003,
      data: { code: 'INSUFFICIENT_FEE_PAYER_BALANCE', currentBalance: '0', availableBalance: '0' },
    });
    expect(BigInt(error.data.feeLimit ?? '0')).toBeGreaterThan(0n);
    // `tx send` shows it as documented: exit 1, the rejection code as error.code, the figures as error.data.
    const file = join(mkdtempSync(join(tmpdir(), 'l2node-send-')), 'tx.json');
    writeFileSync(file, JSON.stringify(json));
    const run = await l2node(['tx', 'send', file, '--node-url', node.publicUrl, '--json']);
    expect(run.code).toBe(1);
    expect(envelopeOf(run).error).toMatchObject({
      code: 'INSUFFICIENT_FEE_PAYER_BALANCE',
      data: { data: { currentBalance: '0', feeLimit: error.data.feeLimit } },
    });
  });

  it('max fee per gas below the current min fee: skipped by isValidTx, refused by sendTx', async () => {
    const fees = (await call(node.publicUrl, 'node_getCurrentMinFees')).result as { feePerL2Gas: string };
    const json = build({ maxFeesPerGas: new GasFees(0n, BigInt(fees.feePerL2Gas) - 1n) }).toJSON();
    expect((await call(node.publicUrl, 'node_isValidTx', [json])).result).toEqual({
      result: 'skipped',
      reason: [TX_ERROR.INSUFFICIENT_FEE_PER_GAS],
    });
    expect((await call(node.publicUrl, 'node_sendTx', [json])).error).toMatchObject({
      code: -32004,
      data: { code: 'TX_INVALID', reasons: [TX_ERROR.INSUFFICIENT_FEE_PER_GAS] },
    });
  });

  it('honours skipFeeEnforcement and isSimulation', async () => {
    const json = build({ feePayer: new AztecAddress(0xdeadn), maxFeesPerGas: new GasFees(0n, 1n) }).toJSON();
    expect((await call(node.publicUrl, 'node_isValidTx', [json, { skipFeeEnforcement: true }])).result).toEqual({
      result: 'valid',
    });
    const ok = build().toJSON();
    expect(
      (await call(node.publicUrl, 'node_isValidTx', [ok, { isSimulation: true, skipFeeEnforcement: null }])).result,
    ).toEqual({
      result: 'valid',
    });
  });

  it('accepts any proof (realProofs=false) and recomputes the hash a client sends', async () => {
    const tx = build();
    const json = { ...tx.toJSON(), txHash: `0x${'00'.repeat(31)}01` };
    const proof = Buffer.from(json.chonkProof, 'base64');
    proof.fill(0x07, 4);
    json.chonkProof = proof.toString('base64');
    expect((await call(node.publicUrl, 'node_sendTx', [json])).error).toBeUndefined();
    const stored = (await call(node.publicUrl, 'node_getTxByHash', [tx.txHash.toString()])).result as typeof json;
    expect(stored.txHash).toBe(tx.txHash.toString());
    expect(stored.data).toBe(json.data);
    expect(stored.chonkProof).toBe(json.chonkProof);
  });

  it('refuses a malformed tx as invalid params naming the field', async () => {
    const json = { ...build().toJSON(), data: 'AAAA' };
    const a = await call(node.publicUrl, 'node_sendTx', [json]);
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/^Invalid param 0 \(tx\) of node_sendTx: tx\.data/);
  });
});

describe('the rest of the mempool surface', () => {
  it('is ready and sends the chain values in its version headers', async () => {
    const res = await postJson(node.publicUrl, rpc('node_isReady'));
    expect((res.body as { result: boolean }).result).toBe(true);
    expect(res.headers.get('x-aztec-l2ProtocolContractsHash')).toBe(AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH.toString());
    expect(res.headers.get('x-aztec-l2CircuitsVkTreeRoot')).toBe(AZTEC_4_1_2_VK_TREE_ROOT.toString());
  });

  it('gives the fee model min fees (docs/fees.md: defaults, 4-slot dev epoch)', async () => {
    expect((await call(node.publicUrl, 'node_getCurrentMinFees')).result).toEqual({
      feePerDaGas: '0',
      feePerL2Gas: '1200010100000',
    });
  });

  it("lists 4.1.2's default setup functions, then the settings' extension", async () => {
    const list = (await call(node.publicUrl, 'node_getAllowedPublicSetup')).result as Record<string, unknown>[];
    expect(list).toEqual([
      {
        address: `0x${'00'.repeat(31)}01`,
        selector: `0x${SET_AUTHORIZED_INTERNAL.value.toString(16).padStart(8, '0')}`,
        onlySelf: true,
        rejectNullMsgSender: true,
        calldataLength: 4,
      },
      {
        address: `0x${'00'.repeat(31)}01`,
        selector: `0x${SET_AUTHORIZED.value.toString(16).padStart(8, '0')}`,
        rejectNullMsgSender: true,
        calldataLength: 3,
      },
      {
        address: `0x${'00'.repeat(31)}05`,
        selector: `0x${INCREASE_BALANCE.value.toString(16).padStart(8, '0')}`,
        onlySelf: true,
        calldataLength: 3,
      },
      { address: EXTRA, selector: '0x11223344', rejectNullMsgSender: true },
    ]);
  });

  it('simulates a tx without public calls as the next block would take it (nothing kept)', async () => {
    const t = build();
    const a = await call(node.publicUrl, 'node_simulatePublicCalls', [t.toJSON()]);
    const out = a.result as { revertReason?: unknown; txEffect: { txHash: string }; publicReturnValues: unknown[] };
    expect(out.revertReason).toBeUndefined();
    expect(out.txEffect.txHash).toBe(t.txHash.toString());
    expect(out.publicReturnValues).toEqual([]);
    expect((await call(node.publicUrl, 'node_getTxReceipt', [t.txHash.toString()])).result).toMatchObject({
      status: 'dropped',
    });
  });

  it('answers dropped for an unknown hash, with dropReason unknown that the official client ignores', async () => {
    const hash = `0x${'0b'.repeat(32)}`;
    expect((await call(node.publicUrl, 'node_getTxReceipt', [hash])).result).toEqual({
      txHash: hash,
      status: 'dropped',
      error: 'Tx dropped by P2P node',
      dropReason: 'unknown',
    });
    const receipt = await createAztecNodeClient(node.publicUrl).getTxReceipt(StdTxHash.fromString(hash));
    expect(receipt.status).toBe('dropped');
    expect(receipt.error).toBe('Tx dropped by P2P node');
    expect(receipt).not.toHaveProperty('dropReason');
  });
});
