import { joinPath } from '../serialize/decode-error.js';
import { readObject } from '../serialize/json-reader.js';
import { LogId, type LogIdJson } from './log-id.js';
import { PublicLog, type PublicLogJson } from './public-log.js';

export interface ExtendedPublicLogJson {
  id: LogIdJson;
  log: PublicLogJson;
}

/** A public log with its position, as `node_getPublicLogs` returns it. */
export class ExtendedPublicLog {
  constructor(
    readonly id: LogId,
    readonly log: PublicLog,
  ) {}

  toJSON(): ExtendedPublicLogJson {
    return { id: this.id.toJSON(), log: this.log.toJSON() };
  }

  static fromJSON(json: unknown, path = 'log'): ExtendedPublicLog {
    const o = readObject(json, path);
    return new ExtendedPublicLog(
      LogId.fromJSON(o.id, joinPath(path, 'id')),
      PublicLog.fromJSON(o.log, joinPath(path, 'log')),
    );
  }
}
