import { rpcErrors } from '../../rpc/errors.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import { KeystoreError, KeystoreReloadError } from './keystore-error.js';
import { SlotRangeError } from './slot-range-error.js';
import { type ValidatorService, ValidatorsDisabledError } from './validator-service.js';

/**
 * The validator and slashing RPC methods (spec part 4: validator queries, nodeAdmin_getSlashPayloads,
 * nodeAdmin_getSlashOffenses, keystore reload), in 4.1.2's wire shapes (docs/aztec-facts.md sections 2.9 and 2.11).
 * Spread into the daemon's handlers (src/daemon/rpc-handlers.ts).
 */
export function validatorsRpcHandlers(validators: ValidatorService) {
  return {
    node_getValidatorsStats: async () => validators.validatorsStats(),
    node_getValidatorStats: async (address, fromSlot, toSlot) =>
      answer(() => validators.validatorStats(address, fromSlot, toSlot)),
    nodeAdmin_getSlashPayloads: async () => answer(() => validators.slashPayloads()),
    nodeAdmin_getSlashOffenses: async (round) => answer(() => validators.slashOffenses(round)),
    nodeAdmin_reloadKeystore: async () => {
      try {
        await validators.reloadKeystore();
      } catch (err) {
        throw toRpcError(err);
      }
    },
  } satisfies Partial<RpcHandlers>;
}

function answer<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw toRpcError(err);
  }
}

/** The validators' own refusals reach the caller with their message; anything else stays an internal error. */
function toRpcError(err: unknown): unknown {
  if (err instanceof SlotRangeError) return rpcErrors.invalidParams(err.message);
  if (err instanceof ValidatorsDisabledError) return rpcErrors.unsupported(err.message);
  if (err instanceof KeystoreError || err instanceof KeystoreReloadError) return rpcErrors.invalidState(err.message);
  return err;
}
