import type { AvmRevertReason } from '../../core/avm/index.js';
import { AztecAddress } from '../../core/aztec-address.js';
import { FunctionSelector } from '../../core/contract/function-selector.js';
import { Fr } from '../../core/fr.js';
import { PublicSimulationOutput } from '../../core/tx/public-simulation-output.js';
import { SimulationError } from '../../core/tx/simulation-error.js';
import type { ProcessedPublicTx } from './public-tx-processor.js';

export function toSimulationError(reason: AvmRevertReason): SimulationError {
  return new SimulationError(
    reason.message,
    reason.failingFunctions.map((f) => ({
      contractAddress: new AztecAddress(f.contractAddress),
      ...(f.functionSelector === undefined ? {} : { functionSelector: new FunctionSelector(f.functionSelector) }),
      ...(f.functionName === undefined ? {} : { functionName: f.functionName }),
    })),
    reason.revertData.map((v) => new Fr(v)),
    // 4.1.2 carries an opcode stack (possibly empty) on every reason the AVM raised, which always names a failing
    // function; the reasons the tx processor makes itself (failed private inserts, "TX reverted") have neither.
    reason.failingFunctions.length > 0 ? reason.noirCallStack : undefined,
  );
}

/** What node_simulatePublicCalls answers for a processed tx (4.1.2 AztecNodeService.simulatePublicCalls). */
export function toPublicSimulationOutput(p: ProcessedPublicTx): PublicSimulationOutput {
  return new PublicSimulationOutput(
    p.revertReason && toSimulationError(p.revertReason),
    p.globalVariables,
    p.txEffect,
    p.appLogicReturnValues.map((values) => values.map((v) => new Fr(v))),
    p.gasUsed,
    p.debugLogs,
  );
}
