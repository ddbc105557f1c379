import { RpcClient } from '../rpc/client/rpc-client.js';

/**
 * The dev chain's cheat codes (the nodeDev_ methods of the admin listener), typed: each answers as the method
 * does (docs/cheat-codes.md). Addresses and field values are 0x hex strings, amounts bigints.
 */
export interface DevCheats {
  /** nodeDev_mineBlocks: builds `count` blocks now (default 1); their numbers. */
  mine(count?: number): Promise<number[]>;
  /** nodeDev_setPublicStorage: the block that applied it, or undefined while it waits for the next block. */
  setPublicStorage(contract: string, slot: string | bigint, value: string | bigint): Promise<number | undefined>;
  /** nodeDev_setFeeJuiceBalance: the block that applied it, or undefined while it waits for the next block. */
  setFeeJuiceBalance(address: string, amount: bigint): Promise<number | undefined>;
  /** nodeDev_increaseTime: L2 time now (Unix seconds). */
  increaseTime(seconds: number): Promise<number>;
  /** nodeDev_setNextBlockTimestamp. */
  setNextBlockTimestamp(timestamp: number): Promise<number>;
  /** nodeDev_snapshot: a snapshot id for revert. */
  snapshot(): Promise<number>;
  /** nodeDev_revert: the block number the chain is back at. */
  revert(id: number): Promise<number>;
  /** nodeDev_sendL1ToL2Message: the message's leaf index and checkpoint. */
  sendL1ToL2Message(message: string): Promise<{ index: bigint; checkpoint: number }>;
}

const hex64 = (v: string | bigint) => (typeof v === 'bigint' ? `0x${v.toString(16).padStart(64, '0')}` : v);

/** The cheat codes of the node whose admin listener is at `adminUrl`. */
export function devCheats(adminUrl: string, apiKey: string | undefined): DevCheats {
  const admin = new RpcClient({ url: adminUrl, ...(apiKey ? { apiKey } : {}) });
  return {
    mine: async (count = 1) => [...(await admin.call('nodeDev_mineBlocks', count))],
    setPublicStorage: (contract, slot, value) =>
      admin.call('nodeDev_setPublicStorage', contract, hex64(slot), hex64(value)),
    setFeeJuiceBalance: (address, amount) => admin.call('nodeDev_setFeeJuiceBalance', address, amount.toString()),
    increaseTime: (seconds) => admin.call('nodeDev_increaseTime', seconds),
    setNextBlockTimestamp: (timestamp) => admin.call('nodeDev_setNextBlockTimestamp', timestamp),
    snapshot: () => admin.call('nodeDev_snapshot'),
    revert: (id) => admin.call('nodeDev_revert', id),
    sendL1ToL2Message: (message) => admin.call('nodeDev_sendL1ToL2Message', message),
  };
}
