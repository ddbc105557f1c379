import type { AztecAddress } from '../aztec-address.js';
import type { Fr } from '../fr.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import { readAztecAddress, readFrArray, readObject, readString } from '../serialize/json-reader.js';

export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'verbose', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface DebugLogJson {
  contractAddress: string;
  level: LogLevel;
  message: string;
  fields: string[];
}

/** A debug log printed by public bytecode; nodes with fake proofs attach them to receipts. */
export class DebugLog {
  constructor(
    readonly contractAddress: AztecAddress,
    readonly level: LogLevel,
    readonly message: string,
    readonly fields: readonly Fr[],
  ) {}

  toJSON(): DebugLogJson {
    return {
      contractAddress: this.contractAddress.toString(),
      level: this.level,
      message: this.message,
      fields: this.fields.map((f) => f.toString()),
    };
  }

  static fromJSON(json: unknown, path = 'debugLog'): DebugLog {
    const o = readObject(json, path);
    const level = readString(o.level, path, 'level');
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new DecodeError(joinPath(path, 'level'), `expected one of ${LOG_LEVELS.join(', ')}, received "${level}"`);
    }
    return new DebugLog(
      readAztecAddress(o.contractAddress, path, 'contractAddress'),
      level as LogLevel,
      readString(o.message, path, 'message'),
      readFrArray(o.fields, path, 'fields'),
    );
  }
}
