import { formatEther, type PublicClient } from 'viem';
import { L1_GAS_PER_CHECKPOINT_PROPOSED } from '../fees/fee-lib.js';
import type { Logger } from '../logging/logger.js';
import { type L1Activity, type L1TxReport, oneLine } from './l1-activity.js';

/** What GET /status and `l2node status` show of the L1 (docs/l1.md). */
export interface L1Status {
  readonly chainId: number;
  /** The first L1 JSON-RPC URL, without credentials, path query or fragment (they may hold API keys). */
  readonly rpcUrl: string;
  readonly rollupAddress: string;
  readonly registryAddress: string;
  readonly publisher: {
    readonly address: string;
    readonly balanceWei?: string;
    /** True while the balance is under what one proposal may cost (PUBLISHER_LOW_BALANCE_WEI); absent before a reading. */
    readonly lowBalance?: boolean;
  };
  readonly reachable: boolean;
  readonly blockNumber?: number;
  /** Unix seconds of the latest L1 block. */
  readonly blockTimestamp?: number;
  readonly lastError?: string;
  /** When the L1 was last asked (ISO 8601); absent before the first poll answers. */
  readonly checkedAt?: string;
  /** The publisher's last checkpoint proposal and epoch proof since the node started; null before the first. */
  readonly lastProposal: L1TxReport | null;
  readonly lastProof: L1TxReport | null;
}

export interface L1MonitorOptions {
  readonly client: PublicClient;
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly rollupAddress: string;
  readonly registryAddress: string;
  readonly publisherAddress: `0x${string}`;
  readonly intervalMs: number;
  /** The publisher's txs, shown with the readings. */
  readonly activity: L1Activity;
  /** Called after every poll, answered or not (the event stream sends the new status). */
  readonly onPoll?: () => void;
  readonly log: Logger;
}

/** Gwei a proposal is priced at for the low-balance warning: a busy mainnet's base fee, far above a quiet one's. */
const PRUDENT_GAS_PRICE_WEI = 50n * 10n ** 9n;
/**
 * Under this the publisher is warned about (0.015 ETH): one checkpoint proposal's L1 gas as the rollup prices it,
 * at 50 gwei. Blob gas is usually far cheaper; an epoch proof (3.6M gas) costs more, so a publisher just above
 * this still runs dry at the epoch's end: the warning comes early rather than late.
 */
export const PUBLISHER_LOW_BALANCE_WEI = L1_GAS_PER_CHECKPOINT_PROPOSED * PRUDENT_GAS_PRICE_WEI;

/** An RPC URL as safe to show: scheme, host and port only. */
export function redactRpcUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unparsable URL)';
  }
}

/** What a poll reads; the rest of the status is fixed or comes from the activity. */
type L1Reading = Omit<
  L1Status,
  'chainId' | 'rpcUrl' | 'rollupAddress' | 'registryAddress' | 'publisher' | 'lastProposal' | 'lastProof'
> & { balanceWei?: string; lowBalance?: boolean };

/**
 * Polls the L1 every few seconds: its latest block, the publisher's balance, whether it answers. An L1 that
 * goes down is logged once (warning) and once when it is back (info), never once per poll; so is a publisher
 * whose balance falls under PUBLISHER_LOW_BALANCE_WEI (warning) and recovers (info). Polling goes on.
 */
export class L1Monitor {
  private reading: L1Reading = { reachable: true };
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private polling: Promise<void> | undefined;

  constructor(private readonly o: L1MonitorOptions) {}

  start(): void {
    this.polling = this.poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
  }

  status(): L1Status {
    const { balanceWei, lowBalance, ...rest } = this.reading;
    const { activity } = this.o;
    return {
      chainId: this.o.chainId,
      rpcUrl: redactRpcUrl(this.o.rpcUrl),
      rollupAddress: this.o.rollupAddress,
      registryAddress: this.o.registryAddress,
      publisher: {
        address: this.o.publisherAddress,
        ...(balanceWei !== undefined ? { balanceWei, lowBalance: lowBalance === true } : {}),
      },
      ...rest,
      lastProposal: activity.lastProposal() ?? null,
      lastProof: activity.lastProof() ?? null,
    };
  }

  private async poll(): Promise<void> {
    const { client, log } = this.o;
    const checkedAt = new Date().toISOString();
    try {
      // The balance at the block read: the two figures of a reading are of one moment (a proposal mined between
      // two reads at `latest` would make them disagree).
      const block = await client.getBlock({ blockTag: 'latest' });
      const balance = await client.getBalance({ address: this.o.publisherAddress, blockNumber: block.number });
      if (!this.reading.reachable) log.info({ rpcUrl: redactRpcUrl(this.o.rpcUrl) }, 'L1 is reachable again');
      this.reading = {
        reachable: true,
        blockNumber: Number(block.number),
        blockTimestamp: Number(block.timestamp),
        balanceWei: balance.toString(),
        lowBalance: this.checkBalance(balance),
        checkedAt,
      };
    } catch (err) {
      // viem's messages carry the URL (and its credentials); its short message is enough to say why.
      const reason = (err as { shortMessage?: string }).shortMessage ?? (err as Error).message;
      const lastError = oneLine(reason);
      if (this.reading.reachable) {
        log.warn(
          { rpcUrl: redactRpcUrl(this.o.rpcUrl), err: lastError },
          `L1 unreachable (${lastError}); retrying every ${this.o.intervalMs / 1000} s`,
        );
      }
      this.reading = { ...this.reading, reachable: false, lastError, checkedAt };
    }
    this.o.onPoll?.();
    if (!this.stopped) this.timer = setTimeout(() => this.start(), this.o.intervalMs);
  }

  /** Whether `balance` is low; logged when that changes (the first reading is logged only when low). */
  private checkBalance(balance: bigint): boolean {
    const low = balance < PUBLISHER_LOW_BALANCE_WEI;
    const was = this.reading.lowBalance;
    const context = { publisher: this.o.publisherAddress, balanceWei: balance.toString() };
    if (low && was !== true) {
      this.o.log.warn(
        context,
        `L1 publisher ${this.o.publisherAddress} holds ${formatEther(balance)} ETH, under the ` +
          `${formatEther(PUBLISHER_LOW_BALANCE_WEI)} ETH one proposal may cost: send it ETH, or proposals and ` +
          'proofs will fail (and be retried)',
      );
    } else if (!low && was === true) {
      this.o.log.info(context, `L1 publisher ${this.o.publisherAddress} is funded again (${formatEther(balance)} ETH)`);
    }
    return low;
  }
}
