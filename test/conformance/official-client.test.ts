import { readFileSync } from 'node:fs';
import { encodeArguments, FunctionSelector } from '@aztec/stdlib/abi';
import {
  AztecNodeAdminApiSchema,
  AztecNodeApiSchema,
  createAztecNodeAdminClient,
  createAztecNodeClient,
} from '@aztec/stdlib/interfaces/client';
import { Tx as StdTx } from '@aztec/stdlib/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { CANONICAL_AUTH_REGISTRY_ADDRESS } from '../../src/core/constants.js';
import { Fr } from '../../src/core/fr.js';
import type { PublicCallsSpec } from '../../src/core/tx/tx-builder.js';
import { RPC_METHODS } from '../../src/rpc/method-table.js';
import { LISTENER_NAMESPACE, type RpcMethod } from '../../src/rpc/rpc-method.js';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { postJson, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { ADMIN_CASES, DEFAULT_NODE_TX_BUILDER, DEFAULT_NODE_TX_FEES, PUBLIC_CASES } from './conformance-cases.js';
import { type Callable, runCases } from './run-cases.js';

/**
 * The official Aztec 4.1.2 clients (`@aztec/stdlib`) against a node started as `npm start` starts it
 * (on free ports). They always send batches and parse every answer with their own zod schemas, so any
 * answer of ours they would reject fails here. Independent of our encoders on purpose: it checks them.
 */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
let node: RunningNode;

beforeAll(async () => {
  // The client hashes the txs it reads (getPendingTxs, getTxByHash) through bb.js.
  await initAztecOracle();
  node = await spawnNode();
});
afterAll(async () => {
  await node?.stop();
});

const methods = Object.values(RPC_METHODS) as RpcMethod[];
const short = (m: RpcMethod) => m.name.slice(LISTENER_NAMESPACE[m.listener].length + 1);
describe('the case lists', () => {
  it.each([
    ['public', PUBLIC_CASES, AztecNodeApiSchema],
    ['admin', ADMIN_CASES, AztecNodeAdminApiSchema],
  ] as const)('name %s methods that both the table (as "same") and 4.1.2 have', (listener, cases, schema) => {
    for (const c of cases) {
      const ours = methods.find((m) => m.listener === listener && short(m) === c.method);
      expect(ours, `${c.method} is not a ${listener} method of the table`).toBeDefined();
      expect(ours?.compat.aztec, `${c.method} differs from 4.1.2: the official client cannot judge it`).toBe('same');
      expect(Object.keys(schema)).toContain(c.method);
    }
  });

  it('cover every "same" method the node serves (bind a handler: add a case)', async () => {
    const candidates = methods.filter((m) => m.compat.aztec === 'same');
    const answers = await Promise.all(
      candidates.map(async (m) => {
        const url = m.listener === 'public' ? node.publicUrl : node.adminUrl;
        // Object params are refused before any handler runs, so probing never pauses sync or the like.
        const probe = { jsonrpc: '2.0', id: 1, method: m.name, params: { probe: true } };
        const res = await postJson(url, probe, { 'x-api-key': node.adminKey as string });
        const error = (res.body as { error?: { message: string } }).error;
        return { m, served: !error?.message.endsWith('is not available yet') };
      }),
    );
    const covered = new Set([...PUBLIC_CASES, ...ADMIN_CASES].map((c) => c.method));
    const missing = answers.filter((a) => a.served && !covered.has(short(a.m))).map((a) => a.m.name);
    expect(missing, 'served methods without a conformance case').toEqual([]);
  });
});

describe('createAztecNodeClient (4.1.2)', () => {
  it('accepts every answer of the cases', async () => {
    await runCases(createAztecNodeClient(node.publicUrl) as unknown as Callable, PUBLIC_CASES);
  });

  it('reads the node identity: block number, versions, chain id, readiness', async () => {
    const client = createAztecNodeClient(node.publicUrl, { l1ChainId: 31337, rollupVersion: 1 });
    const [blockNumber, nodeVersion, version, chainId, ready] = await Promise.all([
      client.getBlockNumber(),
      client.getNodeVersion(),
      client.getVersion(),
      client.getChainId(),
      client.isReady(),
    ]);
    expect(Number.isInteger(blockNumber) && blockNumber >= 0).toBe(true);
    expect([nodeVersion, version, chainId]).toEqual([PACKAGE_VERSION, 1, 31337]);
    expect(typeof ready).toBe('boolean');
  });

  it('reads our version headers: a client expecting another rollup version refuses the node', async () => {
    const client = createAztecNodeClient(node.publicUrl, { rollupVersion: 2 });
    await expect(client.getBlockNumber()).rejects.toThrow(
      /Expected component version rollupVersion to be 2 but received 1/,
    );
  });
});

/** Calldata of an AuthRegistry public function (a protocol contract, present from genesis): selector, then args. */
async function authRegistryCall(name: string, args: unknown[]): Promise<Fr[]> {
  const { getCanonicalAuthRegistry } = await import('@aztec/protocol-contracts/auth-registry');
  const { artifact } = await getCanonicalAuthRegistry();
  const fn = [...artifact.functions, ...(artifact.nonDispatchPublicFunctions ?? [])].find((f) => f.name === name);
  if (!fn) throw new Error(`AuthRegistry has no function ${name}`);
  const selector = await FunctionSelector.fromNameAndParameters(fn.name, fn.parameters);
  return [selector.toField(), ...encodeArguments(fn, args)].map((f) => new Fr(f.toBigInt()));
}

/** The fee on `gas` at the block's fees (no priority fees): what the tx effect must charge. */
const feeOf = (gas: { daGas: number; l2Gas: number }, fees: { feePerDaGas: bigint; feePerL2Gas: bigint }) =>
  BigInt(gas.daGas) * fees.feePerDaGas + BigInt(gas.l2Gas) * fees.feePerL2Gas;

describe('createAztecNodeClient (4.1.2): node_simulatePublicCalls with public calls', () => {
  const sender = DEFAULT_NODE_TX_FEES.feePayer;
  const message = new Fr(0x5eed_c0den);
  const simulate = (publicCalls: PublicCallsSpec, txRequestHash: bigint) => {
    const tx = DEFAULT_NODE_TX_BUILDER.build({
      ...DEFAULT_NODE_TX_FEES,
      txRequestHash: new Fr(txRequestHash),
      publicCalls,
    });
    return createAztecNodeClient(node.publicUrl).simulatePublicCalls(StdTx.fromBuffer(tx.toBuffer()));
  };
  const registryCall = async (name: string, args: unknown[], isStaticCall = false) => ({
    contractAddress: new AztecAddress(CANONICAL_AUTH_REGISTRY_ADDRESS),
    msgSender: sender,
    calldata: await authRegistryCall(name, args),
    isStaticCall,
  });

  it("success: the app logic calls' return values, the tx effect and gas, no revert reason", async () => {
    const out = await simulate(
      {
        appLogic: [
          await registryCall('set_authorized', [message.value, true]),
          // A view function: it must be called statically.
          await registryCall('is_consumable', [sender.toString(), message.value], true),
        ],
      },
      0x51n,
    );
    expect(out.revertReason).toBeUndefined();
    expect(out.txEffect.revertCode.getCode()).toBe(0);
    // set_authorized returns nothing; is_consumable answers true for what the same sender just authorised.
    expect(out.publicReturnValues.map((r) => (r.values ?? []).map((v) => v.toBigInt()))).toEqual([[], [1n]]);
    // The approval is written in public (beside the fee payment).
    expect(out.txEffect.publicDataWrites.length).toBe(2);
    const { totalGas, billedGas, publicGas, teardownGas } = out.gasUsed;
    expect(publicGas.l2Gas).toBeGreaterThan(0);
    expect(teardownGas.l2Gas).toBe(0);
    expect(billedGas.l2Gas).toBe(totalGas.l2Gas);
    expect(out.txEffect.transactionFee.toBigInt()).toBe(feeOf(billedGas, out.globalVariables.gasFees));
  });

  it('revert: the reason with the failing function, revert code 1, the fee still charged', async () => {
    // consume() of an action nobody authorised fails its assertion (the node has no artifact to render the
    // message from: the error selector is in the revert data).
    const consume = await registryCall('consume', [sender.toString(), message.value]);
    const out = await simulate({ appLogic: [consume] }, 0x52n);
    expect(out.revertReason?.getOriginalMessage()).toMatch(/^Assertion failed/);
    expect(out.revertReason?.revertData.length).toBeGreaterThan(0);
    // The failing call: the registry at its selector (4.1.2 registers only `public_dispatch` of the protocol
    // contracts' signatures, so no function name).
    expect(
      out.revertReason
        ?.getCallStack()
        .map((f) => [f.contractAddress.toBigInt(), f.functionSelector?.toField().toBigInt(), f.functionName]),
    ).toEqual([[CANONICAL_AUTH_REGISTRY_ADDRESS, consume.calldata[0]?.value, undefined]]);
    expect(out.txEffect.revertCode.getCode()).toBe(1);
    expect(out.publicReturnValues).toHaveLength(1);
    // Only the fee payment survives the revert.
    expect(out.txEffect.publicDataWrites.length).toBe(1);
    const { totalGas, billedGas, publicGas, teardownGas } = out.gasUsed;
    expect(publicGas.l2Gas).toBeGreaterThan(0);
    expect(teardownGas.daGas + teardownGas.l2Gas).toBe(0);
    expect(billedGas).toEqual(totalGas);
    expect(out.txEffect.transactionFee.toBigInt()).toBe(feeOf(billedGas, out.globalVariables.gasFees));
  });
});

describe('createAztecNodeAdminClient (4.1.2)', () => {
  it('accepts every answer of the admin cases', async () => {
    const client = createAztecNodeAdminClient(node.adminUrl, {}, undefined, node.adminKey);
    await runCases(client as unknown as Callable, ADMIN_CASES);
  });

  it('authenticates with the key it sends as x-api-key, and is refused without it', async () => {
    const withKey = createAztecNodeAdminClient(node.adminUrl, {}, undefined, node.adminKey);
    // Whatever the method answers (a config, or "not available yet"), it is not an authentication failure.
    const answered = await withKey.getConfig().then(
      () => 'ok',
      (err: Error) => err.message,
    );
    expect(answered).not.toMatch(/401|Unauthorized/);
    const withoutKey = createAztecNodeAdminClient(node.adminUrl);
    await expect(withoutKey.getConfig()).rejects.toThrow(/401|Unauthorized/);
  });
});
