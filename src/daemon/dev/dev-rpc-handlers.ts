import { rpcErrors } from '../../rpc/errors.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import { TimeWarpRefusedError } from '../chain/chain-state.js';
import type { NodeConfig } from '../config/settings.js';
import { DevSnapshotLimitError, type DevTools, StateOverrideRefusedError, UnknownSnapshotError } from './dev-tools.js';

/**
 * The dev chain's time and snapshot cheat codes (nodeDev_, admin listener), spread into the daemon's handlers.
 * A follower has no DevTools: it answers that these are dev mode only. Refusals: a warp before the latest block
 * or an unknown snapshot is -32602 (the param is wrong), the snapshot limit -32005 INVALID_STATE.
 */
export function devRpcHandlers(dev: DevTools | undefined, config: NodeConfig) {
  const tools = (): DevTools => {
    if (!dev && config.syncFrom) {
      throw rpcErrors.unsupported(
        `This node follows ${config.syncFrom}: time, state, snapshots and reverts are dev mode only; use them on the node it follows`,
      );
    }
    if (!dev) {
      throw rpcErrors.unsupported(
        'This node settles on an L1 it does not run (--l1-rpc-urls): its chain and time follow the rollup, so time warps, snapshots, reverts and state overrides are refused; with --l1 anvil the node warps and snapshots its anvil with itself (docs/l1.md)',
      );
    }
    return dev;
  };
  const refusals = async <T>(fn: () => T | Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (
        err instanceof TimeWarpRefusedError ||
        err instanceof UnknownSnapshotError ||
        err instanceof StateOverrideRefusedError
      ) {
        throw rpcErrors.invalidParams(err.message);
      }
      if (err instanceof DevSnapshotLimitError) throw rpcErrors.invalidState(err.message);
      throw err;
    }
  };
  return {
    nodeDev_increaseTime: async (seconds) => refusals(() => tools().increaseTime(seconds)),
    nodeDev_setNextBlockTimestamp: async (timestamp) => refusals(() => tools().setNextBlockTimestamp(timestamp)),
    nodeDev_snapshot: async () => refusals(() => tools().snapshot()),
    nodeDev_revert: async (id) => refusals(() => tools().revert(id)),
    nodeDev_setPublicStorage: async (contract, slot, value) =>
      refusals(() => tools().setPublicStorage(contract.value, slot.value, value.value)),
    nodeDev_setFeeJuiceBalance: async (address, amount) =>
      refusals(() => tools().setFeeJuiceBalance(address.value, amount)),
  } satisfies Partial<RpcHandlers>;
}
