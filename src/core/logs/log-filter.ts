import type { AztecAddress } from '../aztec-address.js';
import type { Fr } from '../fr.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import { readAztecAddress, readFr, readInteger, readObject, readTxHash } from '../serialize/json-reader.js';
import type { TxHash } from '../tx-hash.js';
import { LogId, type LogIdJson } from './log-id.js';

/**
 * Which public or contract class logs to fetch (docs/aztec-facts.md section 2.5); the keys combine as an
 * intersection. `fromBlock` is inclusive, `toBlock` exclusive, `tag` matches a log's first field (public
 * logs only).
 */
export interface LogFilter {
  txHash?: TxHash;
  fromBlock?: number;
  toBlock?: number;
  afterLog?: LogId;
  contractAddress?: AztecAddress;
  tag?: Fr;
}

export interface LogFilterJson {
  txHash?: string;
  fromBlock?: number;
  toBlock?: number;
  afterLog?: LogIdJson;
  contractAddress?: string;
  tag?: string;
}

const KEYS = ['txHash', 'fromBlock', 'toBlock', 'afterLog', 'contractAddress', 'tag'] as const;

/**
 * Reads a filter. Every key is optional, but a key that is present must be valid: like 4.1.2's plain
 * `.optional()`, `null` is rejected. Unknown keys are ignored.
 */
export function logFilterFromJSON(json: unknown, path = 'filter'): LogFilter {
  const o = readObject(json, path);
  for (const k of KEYS) {
    if (o[k] === null) throw new DecodeError(joinPath(path, k), 'null is not allowed; leave the key out instead');
  }
  const f: LogFilter = {};
  if (o.txHash !== undefined) f.txHash = readTxHash(o.txHash, path, 'txHash');
  if (o.fromBlock !== undefined) f.fromBlock = readInteger(o.fromBlock, path, 'fromBlock', Number.MIN_SAFE_INTEGER);
  if (o.toBlock !== undefined) f.toBlock = readInteger(o.toBlock, path, 'toBlock', Number.MIN_SAFE_INTEGER);
  if (o.afterLog !== undefined) f.afterLog = LogId.fromJSON(o.afterLog, joinPath(path, 'afterLog'));
  if (o.contractAddress !== undefined) f.contractAddress = readAztecAddress(o.contractAddress, path, 'contractAddress');
  if (o.tag !== undefined) f.tag = readFr(o.tag, path, 'tag');
  return f;
}

/** The wire form of a filter (what a client sends); absent keys stay absent. */
export function logFilterToJSON(f: LogFilter): LogFilterJson {
  const out: LogFilterJson = {};
  if (f.txHash) out.txHash = f.txHash.toString();
  if (f.fromBlock !== undefined) out.fromBlock = f.fromBlock;
  if (f.toBlock !== undefined) out.toBlock = f.toBlock;
  if (f.afterLog) out.afterLog = f.afterLog.toJSON();
  if (f.contractAddress) out.contractAddress = f.contractAddress.toString();
  if (f.tag) out.tag = f.tag.toString();
  return out;
}
