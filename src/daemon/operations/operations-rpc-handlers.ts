import { rpcErrors } from '../../rpc/errors.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import { SettingParseError } from '../config/setting.js';
import { SnapshotRefusedError } from '../snapshots/snapshot-refused-error.js';
import { RollbackRefusedError } from './chain-rollback.js';
import type { OperationsService } from './operations-service.js';
import { ConfigUpdateError } from './runtime-config.js';

/**
 * The admin operations' RPC methods (spec part 4, admin operations; docs/aztec-facts.md section 2.11), spread into the
 * daemon's handlers (src/daemon/rpc-handlers.ts). Refusals become -32602 (a bad key or value, naming it) or
 * -32005 INVALID_STATE (what the node cannot do now).
 */
export function operationsRpcHandlers(ops: () => OperationsService) {
  return {
    nodeAdmin_getConfig: async () => ops().config.get(),
    nodeAdmin_setConfig: async (partial) => {
      try {
        ops().setConfig(partial);
      } catch (err) {
        if (err instanceof ConfigUpdateError) throw rpcErrors.invalidParams(`Invalid param 0 (config): ${err.message}`);
        throw err;
      }
    },
    nodeAdmin_pauseSync: async () => ops().pauseSync(),
    nodeAdmin_resumeSync: async () => ops().resumeSync(),
    nodeAdmin_rollbackTo: async (target, force) => {
      try {
        await ops().rollbackTo(target, force ?? false);
      } catch (err) {
        if (err instanceof RollbackRefusedError) {
          // Clients (the CLI's `admin rollback`) tell their users how they pass force from these figures.
          const finalized = err.finalizedBlockNumber;
          throw rpcErrors.invalidState(
            err.message,
            finalized === undefined ? undefined : { forceRequired: true, finalizedBlockNumber: finalized },
          );
        }
        throw err;
      }
    },
    nodeAdmin_startSnapshotUpload: async (location) => {
      try {
        await ops().startSnapshotUpload(location);
      } catch (err) {
        if (err instanceof SettingParseError)
          throw rpcErrors.invalidParams(`Invalid param 0 (location): ${err.message}`);
        if (err instanceof SnapshotRefusedError) throw rpcErrors.invalidState(err.message);
        throw err;
      }
    },
  } satisfies Partial<RpcHandlers>;
}
