import type { AztecAddress } from '../aztec-address.js';
import { FunctionSelector } from '../contract/function-selector.js';
import type { Fr } from '../fr.js';
import { joinPath } from '../serialize/decode-error.js';
import { readArray, readAztecAddress, readFrArray, readObject, readString } from '../serialize/json-reader.js';

/** A function on the failing call path, outermost first (4.1.2 FailingFunction). */
export interface FailingFunction {
  readonly contractAddress: AztecAddress;
  readonly functionSelector?: FunctionSelector;
  readonly functionName?: string;
}

export interface SimulationErrorJson {
  originalMessage: string;
  functionErrorStack: { contractAddress: string; functionSelector?: string; functionName?: string }[];
  noirErrorStack?: string[];
  revertData: string[];
}

/**
 * Why a simulated tx reverted, as 4.1.2's SimulationError travels in JSON: the innermost message, the failing
 * functions, the opcode locations of the innermost frame (present whenever the public VM raised the error, even
 * empty) and the revert data.
 */
export class SimulationError {
  constructor(
    readonly originalMessage: string,
    readonly functionErrorStack: readonly FailingFunction[],
    readonly revertData: readonly Fr[],
    readonly noirErrorStack?: readonly string[],
  ) {}

  toJSON(): SimulationErrorJson {
    const json: SimulationErrorJson = {
      originalMessage: this.originalMessage,
      functionErrorStack: this.functionErrorStack.map((f) => ({
        contractAddress: f.contractAddress.toString(),
        ...(f.functionSelector ? { functionSelector: f.functionSelector.toString() } : {}),
        ...(f.functionName !== undefined ? { functionName: f.functionName } : {}),
      })),
      revertData: this.revertData.map((f) => f.toString()),
    };
    if (this.noirErrorStack) json.noirErrorStack = [...this.noirErrorStack];
    return json;
  }

  static fromJSON(json: unknown, path = 'simulationError'): SimulationError {
    const o = readObject(json, path);
    const stackPath = joinPath(path, 'functionErrorStack');
    const stack = readArray(o.functionErrorStack, path, 'functionErrorStack').map((item, i) => {
      const f = readObject(item, stackPath, i);
      const at = joinPath(stackPath, i);
      return {
        contractAddress: readAztecAddress(f.contractAddress, at, 'contractAddress'),
        ...(f.functionSelector === undefined
          ? {}
          : { functionSelector: FunctionSelector.fromString(readString(f.functionSelector, at, 'functionSelector')) }),
        ...(f.functionName === undefined ? {} : { functionName: readString(f.functionName, at, 'functionName') }),
      };
    });
    const noir =
      o.noirErrorStack === undefined
        ? undefined
        : readArray(o.noirErrorStack, path, 'noirErrorStack').map((s, i) =>
            readString(s, joinPath(path, 'noirErrorStack'), i),
          );
    return new SimulationError(
      readString(o.originalMessage, path, 'originalMessage'),
      stack,
      readFrArray(o.revertData, path, 'revertData'),
      noir,
    );
  }
}
