import type { PublicClient } from 'viem';
import type { Logger } from '../logging/logger.js';

/** What GET /status and `l2node status` show of the L1 (docs/l1.md). */
export interface L1Status {
  readonly chainId: number;
  /** The first L1 JSON-RPC URL, without credentials, path query or fragment (they may hold API keys). */
  readonly rpcUrl: string;
  readonly rollupAddress: string;
  readonly registryAddress: string;
  readonly publisher: { readonly address: string; readonly balanceWei?: string };
  readonly reachable: boolean;
  readonly blockNumber?: number;
  /** Unix seconds of the latest L1 block. */
  readonly blockTimestamp?: number;
  readonly lastError?: string;
  /** When the L1 was last asked (ISO 8601); absent before the first poll answers. */
  readonly checkedAt?: string;
}

export interface L1MonitorOptions {
  readonly client: PublicClient;
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly rollupAddress: string;
  readonly registryAddress: string;
  readonly publisherAddress: `0x${string}`;
  readonly intervalMs: number;
  readonly log: Logger;
}

/** An RPC URL as safe to show: scheme, host and port only. */
export function redactRpcUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Polls the L1 every few seconds: its latest block, the publisher's balance, whether it answers. An L1 that
 * goes down is logged once (warning) and once when it is back (info), never once per poll; polling goes on.
 */
export class L1Monitor {
  private reading: Omit<L1Status, 'chainId' | 'rpcUrl' | 'rollupAddress' | 'registryAddress' | 'publisher'> & {
    balanceWei?: string;
  } = { reachable: true };
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
    const { balanceWei, ...rest } = this.reading;
    return {
      chainId: this.o.chainId,
      rpcUrl: redactRpcUrl(this.o.rpcUrl),
      rollupAddress: this.o.rollupAddress,
      registryAddress: this.o.registryAddress,
      publisher: { address: this.o.publisherAddress, ...(balanceWei !== undefined ? { balanceWei } : {}) },
      ...rest,
    };
  }

  private async poll(): Promise<void> {
    const { client, log } = this.o;
    const checkedAt = new Date().toISOString();
    try {
      const [block, balance] = await Promise.all([
        client.getBlock({ blockTag: 'latest' }),
        client.getBalance({ address: this.o.publisherAddress }),
      ]);
      if (!this.reading.reachable) log.info({ rpcUrl: redactRpcUrl(this.o.rpcUrl) }, 'L1 is reachable again');
      this.reading = {
        reachable: true,
        blockNumber: Number(block.number),
        blockTimestamp: Number(block.timestamp),
        balanceWei: balance.toString(),
        checkedAt,
      };
    } catch (err) {
      // viem's messages carry the URL (and its credentials); its short message is enough to say why.
      const reason = (err as { shortMessage?: string }).shortMessage ?? (err as Error).message;
      const lastError = reason.split('\n')[0] as string;
      if (this.reading.reachable) {
        log.warn(
          { rpcUrl: redactRpcUrl(this.o.rpcUrl), err: lastError },
          `L1 unreachable (${lastError}); retrying every ${this.o.intervalMs / 1000} s`,
        );
      }
      this.reading = { ...this.reading, reachable: false, lastError, checkedAt };
    }
    if (!this.stopped) this.timer = setTimeout(() => this.start(), this.o.intervalMs);
  }
}
