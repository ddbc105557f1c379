import { joinPath } from '../serialize/decode-error.js';
import { readArray, readBoolean, readObject } from '../serialize/json-reader.js';
import { ExtendedContractClassLog, type ExtendedContractClassLogJson } from './extended-contract-class-log.js';
import { ExtendedPublicLog, type ExtendedPublicLogJson } from './extended-public-log.js';

/**
 * A page of logs (`node_getPublicLogs`, `node_getContractClassLogs`, docs/aztec-facts.md section 2.5).
 * `maxLogsHit` says the page is full and the caller should continue with `afterLog` = the last id.
 */
export interface GetLogsResponse<T> {
  logs: T[];
  maxLogsHit: boolean;
}

export type GetPublicLogsResponse = GetLogsResponse<ExtendedPublicLog>;
export type GetContractClassLogsResponse = GetLogsResponse<ExtendedContractClassLog>;

export interface GetPublicLogsResponseJson {
  logs: ExtendedPublicLogJson[];
  maxLogsHit: boolean;
}

export interface GetContractClassLogsResponseJson {
  logs: ExtendedContractClassLogJson[];
  maxLogsHit: boolean;
}

export function getPublicLogsResponseToJSON(r: GetPublicLogsResponse): GetPublicLogsResponseJson {
  return { logs: r.logs.map((l) => l.toJSON()), maxLogsHit: r.maxLogsHit };
}

export function getPublicLogsResponseFromJSON(json: unknown, path = 'response'): GetPublicLogsResponse {
  const o = readObject(json, path);
  const logsPath = joinPath(path, 'logs');
  return {
    logs: readArray(o.logs, path, 'logs').map((l, i) => ExtendedPublicLog.fromJSON(l, joinPath(logsPath, i))),
    maxLogsHit: readBoolean(o.maxLogsHit, path, 'maxLogsHit'),
  };
}

export function getContractClassLogsResponseToJSON(r: GetContractClassLogsResponse): GetContractClassLogsResponseJson {
  return { logs: r.logs.map((l) => l.toJSON()), maxLogsHit: r.maxLogsHit };
}

export function getContractClassLogsResponseFromJSON(json: unknown, path = 'response'): GetContractClassLogsResponse {
  const o = readObject(json, path);
  const logsPath = joinPath(path, 'logs');
  return {
    logs: readArray(o.logs, path, 'logs').map((l, i) => ExtendedContractClassLog.fromJSON(l, joinPath(logsPath, i))),
    maxLogsHit: readBoolean(o.maxLogsHit, path, 'maxLogsHit'),
  };
}
