/**
 * Traces, gas profiles and debug prints (docs/debugging.md) on real contracts sent by the official 4.1.2 wallet:
 * a Token transfer that reverts, one that succeeds, an AMM swap with nested calls, an AvmTest debug_log, an unmined tx traced with traceCall,
 * the same traces after 100 more blocks, and the instruction trace's bound. One node and one wallet for the
 * file (the wallet talks to the node through a proxy that can keep a tx back, for traceCall); cases run in order.
 */
import { createRequire } from 'node:module';
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallTrace, TxTrace } from '../../src/core/trace/tx-trace.js';
import { summarizeTrace } from '../../src/ui/tx-trace-summary.js';
import { l2node } from '../helpers/cli.js';
import { call, result } from '../helpers/mempool-e2e.js';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

const require = createRequire(import.meta.url);
const TOKEN_ARTIFACT = require.resolve('@aztec/noir-contracts.js/artifacts/token_contract-Token');

let node: RunningNode;
let proxy: RpcProxy;
let session: WalletSession;
let alice: AztecAddress;
let bob: AztecAddress;
// biome-ignore lint/suspicious/noExplicitAny: the Token's generated class is imported at run time
let token: any;
/** Set by a case that wants the wallet's next tx kept back (sent to nobody) instead of forwarded. */
let keepBack: ((tx: unknown) => void) | undefined;

const admin = () => ({ 'x-api-key': node.adminKey as string });
const traceTx = (hash: string, options?: object) =>
  result<TxTrace | null>(node.adminUrl, 'nodeDev_traceTx', options ? [hash, options] : [hash], admin());

function allCalls(calls: readonly CallTrace[]): CallTrace[] {
  return calls.flatMap((c) => [c, ...allCalls(c.calls)]);
}

/** The storage writes that stayed: those of calls that succeeded within phases that did, then the fee payment. */
function keptWrites(trace: TxTrace): Map<string, string> {
  const writes = new Map<string, string>();
  const walk = (c: CallTrace) => {
    if (!c.success) return;
    for (const w of c.storageWrites) writes.set(w.leafSlot, w.after);
    for (const child of c.calls) walk(child);
  };
  for (const c of trace.calls) walk(c);
  if (trace.feePayment) writes.set(trace.feePayment.leafSlot, trace.feePayment.after);
  return writes;
}

beforeAll(async () => {
  // 12 s slots: a traceCall and the block that mines the same tx fall in one slot, on a busy machine too.
  node = await spawnNode({ args: ['--slot-duration', '12'] });
  proxy = await startRpcProxy(node.publicUrl);
  proxy.rewriteRequest = (c) => {
    if (c.method !== 'node_sendTx' || !keepBack) return;
    keepBack(c.params[0]);
    keepBack = undefined;
    // The wallet gets null back, as from a sendTx, and the node never sees the tx.
    c.method = 'node_getTxByHash';
    c.params = [`0x${'00'.repeat(32)}`];
  };
  session = await openOfficialWallet(proxy.url);
  for (const account of session.accounts.slice(0, 2)) await deployAccount(session, account);
  [alice, bob] = session.accounts.map((a) => a.address) as [AztecAddress, AztecAddress];
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  ({ contract: token } = await TokenContract.deploy(session.wallet, alice, 'TestToken', 'TT', 18).send({
    from: alice,
  }));
  await token.methods.mint_to_public(alice, 1000n).send({ from: alice });
}, 300_000);

afterAll(async () => {
  await session?.stop();
});

describe('nodeDev_traceTx on Token transfers', () => {
  let revertHash: string;
  let revertTrace: TxTrace;
  let okHash: string;
  let okTrace: TxTrace;

  it('a reverting transfer_in_public: the trace names the failing call and its assertion message', async () => {
    const { receipt } = await token.methods
      .transfer_in_public(alice, bob, 10n ** 12n, 0n)
      .send({ from: alice, wait: { dontThrowOnRevert: true } });
    expect(receipt.executionResult).toBe('app_logic_reverted');
    revertHash = receipt.txHash.toString();
    revertTrace = (await traceTx(revertHash)) as TxTrace;
    expect(revertTrace.executionResult).toBe('app_logic_reverted');
    const failing = revertTrace.calls.find((c) => c.phase === 'app logic' && !c.success) as CallTrace;
    expect(failing.contractAddress).toBe(token.address.toString());
    expect(failing.revertMessage).toMatch(/^Assertion failed/);
    // The wallet registers no signatures with the node: the trace names the call by its selector.
    const { FunctionSelector } = await import('@aztec/stdlib/abi');
    const selector = await FunctionSelector.fromSignature('transfer_in_public((Field),(Field),u128,Field)');
    expect(failing.selector).toBe(selector.toString());
    expect(revertTrace.revertReason?.failingFunctions[0]?.selector).toBe(selector.toString());

    // With the Token's artifact the CLI decodes the revert data into the contract's own message.
    const cli = await l2node([
      'tx',
      'trace',
      revertHash,
      '--admin-url',
      node.adminUrl,
      '--api-key',
      node.adminKey as string,
      '--artifact',
      TOKEN_ARTIFACT,
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const decoded = JSON.parse(cli.stdout).result;
    expect(decoded.decodedRevert.message).toMatch(/overflow|balance/i);
    expect(decoded.decodedRevert.functionName).toBe('transfer_in_public');
    // The artifact's debug symbols map the failing pc to the Noir source: the Token's own code is on the stack.
    const stack = decoded.decodedRevert.sourceCallStack as { path: string; line: number; text: string }[];
    expect(stack.length).toBeGreaterThan(1);
    const inToken = stack.filter((f) => f.path.endsWith('token_contract/src/main.nr'));
    expect(inToken.length, JSON.stringify(stack)).toBeGreaterThan(0);
    expect(inToken[0]?.line).toBeGreaterThan(0);
  }, 240_000);

  it('gas totals equal the receipt and the effect; the profile adds up to the fee', async () => {
    const receipt = await result<{ transactionFee: string }>(node.publicUrl, 'node_getTxReceipt', [revertHash]);
    const effect = await result<{ data: { transactionFee: string } }>(node.publicUrl, 'node_getTxEffect', [revertHash]);
    expect(BigInt(revertTrace.transactionFee)).toBe(BigInt(receipt.transactionFee));
    expect(BigInt(revertTrace.transactionFee)).toBe(BigInt(effect.data.transactionFee));
    const p = revertTrace.profile;
    const phases = p.byPhase.filter((x) => x.phase !== 'teardown');
    const billedL2 = p.private.l2Gas + phases.reduce((n, x) => n + x.l2Gas, 0) + p.teardownBilled.l2Gas;
    const billedDa = p.private.daGas + phases.reduce((n, x) => n + x.daGas, 0) + p.teardownBilled.daGas;
    expect({ l2Gas: billedL2, daGas: billedDa }).toEqual(revertTrace.gasUsed.billedGas);
    expect(BigInt(p.billed.fee)).toBe(BigInt(revertTrace.transactionFee));
    const publicL2 = revertTrace.calls.reduce((n, c) => n + c.gasUsed.l2Gas, 0);
    expect(publicL2).toBe(revertTrace.gasUsed.publicGas.l2Gas);
    // Each call's own gas and the opcodes' gas both add up to what the calls used.
    expect(p.byCall.reduce((n, c) => n + c.l2Gas, 0)).toBe(publicL2);
    expect(p.byOpcodeFamily.reduce((n, f) => n + f.l2Gas, 0)).toBe(publicL2);
    // What the dashboard's block view shows of it.
    expect(summarizeTrace(revertTrace)).toMatchObject({
      txHash: revertHash,
      calls: allCalls(revertTrace.calls).length,
      l2Gas: revertTrace.gasUsed.totalGas.l2Gas,
      revert: expect.stringMatching(/^Assertion failed.*\(in /),
    });
  });

  it('a successful transfer: its kept storage writes are exactly the effect public data writes', async () => {
    const { receipt } = await token.methods.transfer_in_public(alice, bob, 300n, 0n).send({ from: alice });
    okHash = receipt.txHash.toString();
    okTrace = (await traceTx(okHash)) as TxTrace;
    expect(okTrace.executionResult).toBe('success');
    const effect = await result<{ data: { publicDataWrites: { leafSlot: string; value: string }[] } }>(
      node.publicUrl,
      'node_getTxEffect',
      [okHash],
    );
    const fromEffect = new Map(effect.data.publicDataWrites.map((w) => [w.leafSlot, w.value]));
    expect(keptWrites(okTrace)).toEqual(fromEffect);
    const transfer = okTrace.calls.find((c) => c.contractAddress === token.address.toString()) as CallTrace;
    expect(transfer.storageWrites.length).toBeGreaterThanOrEqual(2);
    for (const w of transfer.storageWrites) expect(w.before).not.toBe(w.after);
  }, 180_000);

  it('the instruction trace: steps with pc, opcode and gas; past its bound a LIMIT_EXCEEDED naming it', async () => {
    const full = (await traceTx(okHash, { opcodes: true })) as TxTrace;
    const steps = allCalls(full.calls).flatMap((c) => c.opcodes ?? []);
    expect(steps.length).toBe(full.instructionCount);
    expect(steps[0]).toMatchObject({ pc: 0, opcode: expect.any(String), l2GasLeft: expect.any(Number) });
    const bounded = await call(node.adminUrl, 'nodeDev_traceTx', [okHash, { opcodes: true, maxSteps: 10 }], admin());
    expect(bounded.error?.data?.code).toBe('LIMIT_EXCEEDED');
    expect(bounded.error?.message).toMatch(/bound of 10 steps/);
    expect(bounded.error?.data?.setting).toBe('trace-max-steps');
  }, 120_000);

  it('an unmined tx: traceCall answers what traceTx answers once it is mined on the same state', async () => {
    const kept = new Promise<unknown>((resolve) => {
      keepBack = resolve;
    });
    const { NO_WAIT } = await import('@aztec/aztec.js/contracts');
    await token.methods.transfer_in_public(alice, bob, 5n, 0n).send({ from: alice, wait: NO_WAIT });
    const tx = await kept;
    // The same state includes the globals: a fresh slot starts now at a pinned timestamp, so the slot a traceCall
    // predicts is still the current one when the tx is mined (a 4 s slot could otherwise end in between).
    const latest = await result<{ globalVariables: { timestamp: string } }>(node.publicUrl, 'node_getBlockHeader', [
      'latest',
    ]);
    await result(
      node.adminUrl,
      'nodeDev_setNextBlockTimestamp',
      [Number(latest.globalVariables.timestamp) + 60],
      admin(),
    );
    const unmined = await result<TxTrace>(node.adminUrl, 'nodeDev_traceCall', [tx], admin());
    const hash = await result<unknown>(node.publicUrl, 'node_sendTx', [tx]);
    expect(hash).toBeNull();
    const txHash = unmined.txHash;
    await until('the kept tx to be mined', async () => {
      const r = await result<{ status: string }>(node.publicUrl, 'node_getTxReceipt', [txHash]);
      return r.status === 'pending' ? undefined : r;
    });
    const mined = (await traceTx(txHash)) as TxTrace;
    const { blockNumber: _b, txIndex: _i, ...minedRest } = mined;
    expect(unmined).toEqual(minedRest);
  }, 120_000);

  it('a trace taken 100 blocks later equals the one taken right after mining', async () => {
    const mined = await result<number[]>(node.adminUrl, 'nodeDev_mineBlocks', [100], admin());
    expect(mined).toHaveLength(100);
    expect(await traceTx(revertHash)).toEqual(revertTrace);
    expect(await traceTx(okHash)).toEqual(okTrace);
  }, 240_000);
});

describe('an AMM swap', () => {
  let swapHash: string;

  it('the trace shows the nested calls, and its kept storage writes are exactly the effect public data writes', async () => {
    const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
    const { AMMContract } = await import('@aztec/noir-contracts.js/AMM');
    const { Fr } = await import('@aztec/aztec.js/fields');
    const wallet = session.wallet;
    const deployToken = async (symbol: string) =>
      // biome-ignore lint/suspicious/noExplicitAny: the Token's generated class is imported at run time
      (await TokenContract.deploy(wallet, alice, symbol, symbol, 18).send({ from: alice })).contract as any;
    // The file's Token is token0; the pool's other token and its liquidity token are new.
    const token0 = token;
    const token1 = await deployToken('T1');
    const liquidity = await deployToken('LQ');
    const { contract: amm } = await AMMContract.deploy(wallet, token0.address, token1.address, liquidity.address).send({
      from: alice,
    });
    await liquidity.methods.set_minter(amm.address, true).send({ from: alice });
    await token0.methods.mint_to_private(alice, 100_000n).send({ from: alice });
    await token1.methods.mint_to_private(alice, 100_000n).send({ from: alice });

    // The AMM moves the provider's private tokens to itself: one authwit per token, for the full amounts.
    const addNonce = Fr.random();
    const addWits = await Promise.all(
      [token0, token1].map(async (t) =>
        wallet.createAuthWit(alice, {
          caller: amm.address,
          call: await t.methods
            .transfer_to_public_and_prepare_private_balance_increase(alice, amm.address, 50_000n, addNonce)
            .getFunctionCall(),
        }),
      ),
    );
    await amm.methods
      .add_liquidity(50_000n, 50_000n, 25_000n, 25_000n, addNonce)
      .with({ authWitnesses: addWits })
      .send({ from: alice });

    const swapNonce = Fr.random();
    const swapWit = await wallet.createAuthWit(alice, {
      caller: amm.address,
      call: await token0.methods.transfer_to_public(alice, amm.address, 1_000n, swapNonce).getFunctionCall(),
    });
    const { receipt } = await amm.methods
      .swap_exact_tokens_for_tokens(token0.address, token1.address, 1_000n, 1n, swapNonce)
      .with({ authWitnesses: [swapWit] })
      .send({ from: alice });
    swapHash = receipt.txHash.toString();
    const trace = (await traceTx(swapHash)) as TxTrace;
    expect(trace.executionResult).toBe('success');

    // The swap's public part: token0's transfer to the AMM, then the AMM's _swap, which calls both tokens.
    const ammCall = trace.calls.find((c) => c.contractAddress === amm.address.toString()) as CallTrace;
    expect(ammCall.phase).toBe('app logic');
    const nested = ammCall.calls.map((c) => c.contractAddress);
    expect(nested).toContain(token0.address.toString());
    expect(nested).toContain(token1.address.toString());
    for (const c of ammCall.calls) expect(c.success).toBe(true);

    const effect = await result<{ data: { publicDataWrites: { leafSlot: string; value: string }[] } }>(
      node.publicUrl,
      'node_getTxEffect',
      [swapHash],
    );
    const fromEffect = new Map(effect.data.publicDataWrites.map((w) => [w.leafSlot, w.value]));
    expect(fromEffect.size).toBeGreaterThan(1);
    expect(keptWrites(trace)).toEqual(fromEffect);
  }, 600_000);

  it('a heavy trace runs in a worker: the node keeps answering while it runs', async () => {
    let settled = false;
    const heavy = traceTx(swapHash, { opcodes: true }).finally(() => {
      settled = true;
    });
    // A probe sent after the trace answers before the trace does: the event loop is not held by it.
    const tip = await result<number>(node.publicUrl, 'node_getBlockNumber', []);
    const answeredWhileTracing = !settled;
    const status = await result<{ status: string }>(node.publicUrl, 'node_getTxReceipt', [swapHash]);
    expect(tip).toBeGreaterThan(0);
    expect(status.status).not.toBe('pending');
    const trace = (await heavy) as TxTrace;
    expect(trace.instructionCount).toBeGreaterThan(1000);
    expect(answeredWhileTracing).toBe(true);
  }, 120_000);
});

describe('debug prints', () => {
  it('AvmTest debug_logging: prints in the node log, in the receipt and in the trace', async () => {
    const { AvmTestContract } = await import('@aztec/noir-test-contracts.js/AvmTest');
    const { contract } = await AvmTestContract.deploy(session.wallet).send({ from: alice });
    const { receipt } = await contract.methods.debug_logging().send({ from: alice });
    const hash = receipt.txHash.toString();
    const raw = await result<{ debugLogs?: { message: string; contractAddress: string }[] }>(
      node.publicUrl,
      'node_getTxReceipt',
      [hash],
    );
    expect(raw.debugLogs?.length).toBeGreaterThan(0);
    expect(raw.debugLogs?.[0]?.contractAddress).toBe(contract.address.toString());
    const line = await node.waitForLog((l) => l.txHash === hash && String(l.msg).startsWith('debug_log'));
    expect(line.msg).toContain(contract.address.toString());
    const trace = (await traceTx(hash)) as TxTrace;
    const printed = allCalls(trace.calls).flatMap((c) => c.debugLogs);
    expect(printed.map((p) => p.message)).toEqual(raw.debugLogs?.map((p) => p.message));
  }, 240_000);
});
