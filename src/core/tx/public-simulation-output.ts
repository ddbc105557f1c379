import { GlobalVariables, type GlobalVariablesJson } from '../block/global-variables.js';
import type { Fr } from '../fr.js';
import { Gas, type GasJson } from '../gas/gas.js';
import { DebugLog, type DebugLogJson } from '../logs/debug-log.js';
import { joinPath } from '../serialize/decode-error.js';
import { readArray, readFrArray, readObject } from '../serialize/json-reader.js';
import { SimulationError, type SimulationErrorJson } from './simulation-error.js';
import { TxEffect, type TxEffectJson } from './tx-effect.js';

/** The four gas figures of a processed tx (4.1.2 GasUsed). */
export interface GasUsed {
  /** What the tx really used: private, setup, app logic and teardown as run. */
  readonly totalGas: Gas;
  readonly teardownGas: Gas;
  /** Setup, app logic and teardown. */
  readonly publicGas: Gas;
  /** What the fee is charged on: teardown at its limit. */
  readonly billedGas: Gas;
}

export interface PublicSimulationOutputJson {
  revertReason?: SimulationErrorJson;
  globalVariables: GlobalVariablesJson;
  txEffect: TxEffectJson;
  /** 4.1.2 NestedProcessReturnValues: public calls return nothing nested. */
  publicReturnValues: { values: string[]; nested: [] }[];
  gasUsed: { totalGas: GasJson; teardownGas: GasJson; publicGas: GasJson; billedGas: GasJson };
  debugLogs: DebugLogJson[];
}

/**
 * What node_simulatePublicCalls answers (4.1.2 PublicSimulationOutput): the revert reason, the block's global
 * variables, the tx effect, the return values of each app-logic call that ran, the gas figures and the debug logs.
 */
export class PublicSimulationOutput {
  constructor(
    readonly revertReason: SimulationError | undefined,
    readonly globalVariables: GlobalVariables,
    readonly txEffect: TxEffect,
    readonly publicReturnValues: readonly (readonly Fr[])[],
    readonly gasUsed: GasUsed,
    readonly debugLogs: readonly DebugLog[],
  ) {}

  toJSON(): PublicSimulationOutputJson {
    const out: PublicSimulationOutputJson = {
      globalVariables: this.globalVariables.toJSON(),
      txEffect: this.txEffect.toJSON(),
      publicReturnValues: this.publicReturnValues.map((values) => ({
        values: values.map((v) => v.toString()),
        nested: [],
      })),
      gasUsed: {
        totalGas: this.gasUsed.totalGas.toJSON(),
        teardownGas: this.gasUsed.teardownGas.toJSON(),
        publicGas: this.gasUsed.publicGas.toJSON(),
        billedGas: this.gasUsed.billedGas.toJSON(),
      },
      debugLogs: this.debugLogs.map((l) => l.toJSON()),
    };
    return this.revertReason ? { revertReason: this.revertReason.toJSON(), ...out } : out;
  }

  static fromJSON(json: unknown, path = 'publicSimulationOutput'): PublicSimulationOutput {
    const o = readObject(json, path);
    const gas = readObject(o.gasUsed, path, 'gasUsed');
    const gasPath = joinPath(path, 'gasUsed');
    const returnsPath = joinPath(path, 'publicReturnValues');
    return new PublicSimulationOutput(
      o.revertReason === undefined || o.revertReason === null
        ? undefined
        : SimulationError.fromJSON(o.revertReason, joinPath(path, 'revertReason')),
      GlobalVariables.fromJSON(o.globalVariables, joinPath(path, 'globalVariables')),
      TxEffect.fromJSON(o.txEffect, joinPath(path, 'txEffect')),
      readArray(o.publicReturnValues, path, 'publicReturnValues').map((r, i) => {
        const v = readObject(r, returnsPath, i);
        return v.values === undefined || v.values === null
          ? []
          : readFrArray(v.values, joinPath(returnsPath, i), 'values');
      }),
      {
        totalGas: Gas.fromJSON(gas.totalGas, joinPath(gasPath, 'totalGas')),
        teardownGas: Gas.fromJSON(gas.teardownGas, joinPath(gasPath, 'teardownGas')),
        publicGas: Gas.fromJSON(gas.publicGas, joinPath(gasPath, 'publicGas')),
        billedGas: Gas.fromJSON(gas.billedGas, joinPath(gasPath, 'billedGas')),
      },
      o.debugLogs === undefined
        ? []
        : readArray(o.debugLogs, path, 'debugLogs').map((l, i) =>
            DebugLog.fromJSON(l, joinPath(joinPath(path, 'debugLogs'), i)),
          ),
    );
  }
}
