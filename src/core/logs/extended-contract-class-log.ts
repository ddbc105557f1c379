import { joinPath } from '../serialize/decode-error.js';
import { readObject } from '../serialize/json-reader.js';
import { ContractClassLog, type ContractClassLogJson } from './contract-class-log.js';
import { LogId, type LogIdJson } from './log-id.js';

export interface ExtendedContractClassLogJson {
  id: LogIdJson;
  log: ContractClassLogJson;
}

/** A contract class log with its position, as `node_getContractClassLogs` returns it. */
export class ExtendedContractClassLog {
  constructor(
    readonly id: LogId,
    readonly log: ContractClassLog,
  ) {}

  toJSON(): ExtendedContractClassLogJson {
    return { id: this.id.toJSON(), log: this.log.toJSON() };
  }

  static fromJSON(json: unknown, path = 'log'): ExtendedContractClassLog {
    const o = readObject(json, path);
    return new ExtendedContractClassLog(
      LogId.fromJSON(o.id, joinPath(path, 'id')),
      ContractClassLog.fromJSON(o.log, joinPath(path, 'log')),
    );
  }
}
