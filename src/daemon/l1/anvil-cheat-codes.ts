import { anvilRpc } from './anvil-state-file.js';

/**
 * The L1 half of the dev chain's time warps and snapshots on the node's own anvil (`--l1 anvil`): what
 * aztec.js's EthCheatCodes do to anvil (docs/dev-chain.md). The node's half is the slot clock and its database
 * (src/daemon/dev/dev-tools.ts); the two move together so proposals keep landing in the rollup's slots.
 */
export class AnvilCheatCodes {
  constructor(
    private readonly url: () => string,
    /** Seconds between anvil's blocks (interval mining), restored after a warp. */
    private readonly blockTime: number,
  ) {}

  /** The timestamp of anvil's latest block (seconds). */
  async latestTimestamp(): Promise<number> {
    const block = await anvilRpc<{ timestamp: string }>(this.url(), 'eth_getBlockByNumber', ['latest', false]);
    return Number(BigInt(block.timestamp));
  }

  /**
   * Mines a block at `seconds` now, and interval mining goes on from it (EthCheatCodes.warp with
   * resetBlockInterval): L1 time is `seconds` from here on. It must be after the latest block's.
   */
  async warpTo(seconds: number): Promise<void> {
    const url = this.url();
    await anvilRpc(url, 'evm_setIntervalMining', [0]);
    try {
      await anvilRpc(url, 'evm_setNextBlockTimestamp', [seconds]);
      await anvilRpc(url, 'evm_mine', []);
    } finally {
      await anvilRpc(url, 'evm_setIntervalMining', [this.blockTime]);
    }
  }

  /** evm_snapshot: the id of anvil's snapshot of its chain now. */
  snapshot(): Promise<string> {
    return anvilRpc<string>(this.url(), 'evm_snapshot', []);
  }

  /** evm_revert: anvil's chain back to snapshot `id` (consumed, with every later one); false when unknown. */
  revert(id: string): Promise<boolean> {
    return anvilRpc<boolean>(this.url(), 'evm_revert', [id]);
  }
}
