import type { AvmRevertReason } from '../../core/avm/index.js';
import { AztecAddress } from '../../core/aztec-address.js';
import type { GlobalVariablesJson } from '../../core/block/global-variables.js';
import { FunctionSelector } from '../../core/contract/function-selector.js';
import { Fr } from '../../core/fr.js';
import type { GasJson } from '../../core/gas/gas.js';
import type { DebugLogJson } from '../../core/logs/debug-log.js';
import type { TxEffectJson } from '../../core/tx/tx-effect.js';
import type { ProcessedPublicTx } from './public-tx-processor.js';

/** 4.1.2's FailingFunction as its SimulationError serialises it. */
export interface FailingFunctionJson {
  contractAddress: string;
  functionSelector?: string;
  functionName?: string;
}

/** 4.1.2's SimulationError.toJSON(). */
export interface SimulationErrorJson {
  originalMessage: string;
  functionErrorStack: FailingFunctionJson[];
  noirErrorStack?: string[];
  revertData: string[];
}

/** 4.1.2's NestedProcessReturnValues: what one enqueued call returned (nothing nested from public). */
export interface NestedProcessReturnValuesJson {
  values: string[];
  nested: NestedProcessReturnValuesJson[];
}

/** 4.1.2's PublicSimulationOutput, the answer of node_simulatePublicCalls. */
export interface PublicSimulationOutputJson {
  revertReason?: SimulationErrorJson;
  globalVariables: GlobalVariablesJson;
  txEffect: TxEffectJson;
  publicReturnValues: NestedProcessReturnValuesJson[];
  gasUsed: { totalGas: GasJson; teardownGas: GasJson; publicGas: GasJson; billedGas: GasJson };
  debugLogs: DebugLogJson[];
}

export function simulationErrorJson(reason: AvmRevertReason): SimulationErrorJson {
  const json: SimulationErrorJson = {
    originalMessage: reason.message,
    functionErrorStack: reason.failingFunctions.map((f) => {
      const out: FailingFunctionJson = { contractAddress: new AztecAddress(f.contractAddress).toString() };
      if (f.functionSelector !== undefined) out.functionSelector = new FunctionSelector(f.functionSelector).toString();
      if (f.functionName !== undefined) out.functionName = f.functionName;
      return out;
    }),
    revertData: reason.revertData.map((v) => new Fr(v).toString()),
  };
  // 4.1.2 carries an opcode stack (possibly empty) on every reason the AVM raised, which always names a failing
  // function; the reasons the tx processor makes itself (failed private inserts, "TX reverted") have neither.
  if (reason.failingFunctions.length > 0) json.noirErrorStack = reason.noirCallStack;
  return json;
}

/**
 * What node_simulatePublicCalls answers for a processed tx (4.1.2 AztecNodeService.simulatePublicCalls): the
 * revert reason, the block's global variables, the tx effect, one return value entry per app-logic call, the gas
 * figures and the debug logs.
 */
export function publicSimulationOutputJson(p: ProcessedPublicTx): PublicSimulationOutputJson {
  const out: PublicSimulationOutputJson = {
    globalVariables: p.globalVariables.toJSON(),
    txEffect: p.txEffect.toJSON(),
    publicReturnValues: p.appLogicReturnValues.map((values) => ({
      values: values.map((v) => new Fr(v).toString()),
      nested: [],
    })),
    gasUsed: {
      totalGas: p.gasUsed.totalGas.toJSON(),
      teardownGas: p.gasUsed.teardownGas.toJSON(),
      publicGas: p.gasUsed.publicGas.toJSON(),
      billedGas: p.gasUsed.billedGas.toJSON(),
    },
    debugLogs: p.debugLogs.map((l) => l.toJSON()),
  };
  return p.revertReason ? { revertReason: simulationErrorJson(p.revertReason), ...out } : out;
}
