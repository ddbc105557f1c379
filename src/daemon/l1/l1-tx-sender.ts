import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import {
  BaseError,
  decodeErrorResult,
  type Hex,
  type Kzg,
  type PublicClient,
  type TransactionReceipt,
  type WalletClient,
} from 'viem';
import type { Logger } from '../logging/logger.js';
import type { L1TxKind, L1TxOutcome } from './l1-activity.js';

/** What an L1 tx carries: calldata to the rollup, and the blobs of a proposal. */
export interface L1TxRequest {
  readonly kind: L1TxKind;
  readonly data: Hex;
  readonly blobs?: {
    readonly blobs: readonly Uint8Array[];
    readonly versionedHashes: readonly Hex[];
    readonly kzg: Kzg;
  };
  /** Give up waiting for the receipt after this many ms (a proposal is worthless once its slot is over). */
  readonly timeoutMs: number;
}

/** An L1 tx that did not do its work: not sent, reverted (with the rollup's error), or not mined in time. */
export class L1TxError extends Error {
  override name = 'L1TxError';
  constructor(
    message: string,
    readonly txHash?: Hex,
  ) {
    super(message);
  }
}

/** Gas limits get this headroom over the estimate, as 4.1.2's L1TxUtils gives (20%). */
const GAS_LIMIT_BUFFER_PERCENT = 20n;

/**
 * Sends the node's txs to the rollup contract from the publisher account: simulated first with the same blobs
 * (so a tx the rollup would refuse costs nothing and is reported with the rollup's own error name), then sent,
 * then awaited until its receipt. A reverted tx is reported with its error too. Its txs are simulated and sent one
 * at a time (a proof and a proposal can be due together): each takes its nonce from the L1's pending count, so a
 * second one sent before the first is in the L1's pool would take the same nonce and be refused.
 */
export class L1TxSender {
  /** The send in progress (simulation and submission, not the wait for the receipt). */
  private submitting: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly o: {
      readonly client: PublicClient;
      readonly wallet: WalletClient;
      readonly rollup: `0x${string}`;
      readonly log?: Logger;
    },
  ) {}

  async send(
    req: L1TxRequest,
  ): Promise<{ receipt: TransactionReceipt; outcome: Omit<L1TxOutcome, 'kind' | 'seconds'> }> {
    const submitted = this.submitting.then(() => this.submit(req));
    this.submitting = submitted.catch(() => undefined);
    const { hash, t0, tEstimated, t1 } = await submitted;
    const { client } = this.o;
    let receipt: TransactionReceipt;
    try {
      receipt = await client.waitForTransactionReceipt({ hash, timeout: req.timeoutMs, pollingInterval: 250 });
    } catch (err) {
      throw new L1TxError(`it was not mined in ${Math.round(req.timeoutMs / 1000)} s: ${shortMessage(err)}`, hash);
    }
    const t2 = performance.now();
    this.o.log?.debug(
      {
        kind: req.kind,
        simulateMs: Math.round(tEstimated - t0),
        sendMs: Math.round(t1 - tEstimated),
        receiptMs: Math.round(t2 - t1),
        txHash: hash,
      },
      `${req.kind} tx ${hash}: simulated and sent in ${Math.round(t1 - t0)} ms, mined ${Math.round(t2 - t1)} ms later`,
    );
    if (receipt.status !== 'success') {
      throw new L1TxError(
        `it reverted in L1 block ${receipt.blockNumber}${await revertedTxDetail(client, receipt)}`,
        hash,
      );
    }
    return {
      receipt,
      outcome: {
        txHash: hash,
        ok: true,
        l1BlockNumber: receipt.blockNumber,
        gasUsed: receipt.gasUsed,
        blobGasUsed: receipt.blobGasUsed,
        effectiveGasPriceWei: receipt.effectiveGasPrice,
      },
    };
  }

  /** Simulates `req` and sends it: its hash once the L1 has taken it, and when each step ended. */
  private async submit(req: L1TxRequest): Promise<{ hash: Hex; t0: number; tEstimated: number; t1: number }> {
    const { client, wallet, rollup } = this.o;
    const account = wallet.account;
    if (!account) throw new L1TxError('the publisher has no account');
    const blobHashes = req.blobs ? { blobVersionedHashes: [...req.blobs.versionedHashes] } : {};
    const t0 = performance.now();
    let gas: bigint;
    try {
      gas = await client.estimateGas({ account, to: rollup, data: req.data, ...blobHashes });
    } catch (err) {
      throw new L1TxError(`the rollup refuses it: ${revertReason(err)}`);
    }
    const tEstimated = performance.now();
    const limit = gas + (gas * GAS_LIMIT_BUFFER_PERCENT) / 100n;
    let hash: Hex;
    try {
      if (req.blobs) {
        const blobBaseFee = await client.getBlobBaseFee();
        hash = await wallet.sendTransaction({
          account,
          chain: wallet.chain,
          to: rollup,
          data: req.data,
          gas: limit,
          blobs: req.blobs.blobs.map((b) => b as Uint8Array),
          kzg: req.blobs.kzg,
          // Twice the current blob base fee: room for the base fee to rise for a few blocks.
          maxFeePerBlobGas: blobBaseFee * 2n + 1n,
        });
      } else {
        hash = await wallet.sendTransaction({ account, chain: wallet.chain, to: rollup, data: req.data, gas: limit });
      }
    } catch (err) {
      throw new L1TxError(`it could not be sent: ${shortMessage(err)}`);
    }
    return { hash, t0, tEstimated, t1: performance.now() };
  }
}

/**
 * What the L1 says of a reverted tx: its block's timestamp (most proposals revert for landing in a later slot than
 * theirs) and the rollup's error, read back with `debug_traceTransaction` where the L1 serves it (anvil does; a
 * provider without the debug namespace leaves only the timestamp). Never throws: it only adds to the message.
 */
async function revertedTxDetail(client: PublicClient, receipt: TransactionReceipt): Promise<string> {
  const parts: string[] = [];
  try {
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    parts.push(`timestamp ${block.timestamp}`);
  } catch {
    // The block's time is a hint only.
  }
  try {
    const trace = (await client.request({
      method: 'debug_traceTransaction' as 'eth_call',
      params: [receipt.transactionHash, { tracer: 'callTracer' }] as unknown as [never],
    })) as { output?: Hex; error?: string } | null;
    if (trace?.output && trace.output.length >= 10) parts.push(rollupErrorText(trace.output) ?? trace.output);
    else if (trace?.error) parts.push(trace.error);
  } catch {
    // No debug namespace on this L1.
  }
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** `Name(args)` when `data` is one of the rollup's errors, else undefined. */
function rollupErrorText(data: Hex): string | undefined {
  try {
    const decoded = decodeErrorResult({ abi: RollupAbi, data });
    const args = (decoded.args ?? []).map((a) => String(a)).join(', ');
    return `${decoded.errorName}(${args})`;
  } catch {
    return undefined;
  }
}

/** The rollup's error name and arguments when an L1 call reverted with one, else viem's short message. */
export function revertReason(err: unknown): string {
  if (err instanceof BaseError) {
    const withData = err.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null;
    // Not one of the rollup's errors: fall through to the message.
    const text = withData?.data && withData.data.length >= 10 ? rollupErrorText(withData.data) : undefined;
    if (text) return text;
  }
  return shortMessage(err);
}

function shortMessage(err: unknown): string {
  const message = err instanceof BaseError ? err.shortMessage : (err as Error).message;
  return message.split('\n')[0] ?? 'unknown error';
}
