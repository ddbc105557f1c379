import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import { GetContractClassLogsResponseSchema, GetPublicLogsResponseSchema } from '@aztec/stdlib/interfaces/client';
import {
  LogFilterSchema,
  DebugLog as StdDebugLog,
  ExtendedContractClassLog as StdExtendedContractClassLog,
  ExtendedPublicLog as StdExtendedPublicLog,
  LogId as StdLogId,
  TxScopedL2Log as StdTxScopedL2Log,
} from '@aztec/stdlib/logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DebugLog } from '../../../../src/core/logs/debug-log.js';
import {
  getContractClassLogsResponseFromJSON,
  getContractClassLogsResponseToJSON,
  getPublicLogsResponseFromJSON,
  getPublicLogsResponseToJSON,
} from '../../../../src/core/logs/get-logs-response.js';
import { logFilterFromJSON, logFilterToJSON } from '../../../../src/core/logs/log-filter.js';
import { LogId } from '../../../../src/core/logs/log-id.js';
import { TxScopedL2Log } from '../../../../src/core/logs/tx-scoped-l2-log.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

describe('LogId', () => {
  it("matches stdlib's JSON and bytes", () => {
    for (let i = 0; i < 5; i++) {
      const std = StdLogId.random();
      const ours = LogId.fromJSON(JSON.parse(jsonStringify(std)));
      expect(JSON.stringify(ours)).toBe(jsonStringify(std));
      expect(ours.toBuffer().equals(std.toBuffer())).toBe(true);
      expect(LogId.fromBuffer(std.toBuffer()).toBuffer().equals(std.toBuffer())).toBe(true);
    }
  });

  it('rejects block 0', () => {
    const json = JSON.parse(jsonStringify(StdLogId.random()));
    expect(() => LogId.fromJSON({ ...json, blockNumber: 0 })).toThrow(
      /logId\.blockNumber: logs live in blocks 1 and up/,
    );
  });
});

describe('LogFilter', () => {
  it('reads every key, rejects null like 4.1.2, and writes what stdlib reads', () => {
    const id = StdLogId.random();
    const json = {
      txHash: id.txHash.toString(),
      fromBlock: 3,
      toBlock: '9',
      afterLog: JSON.parse(jsonStringify(id)),
      contractAddress: `0x${'00'.repeat(31)}05`,
      tag: '0x1234',
      unknown: 1,
    };
    const f = logFilterFromJSON(json);
    expect(f.toBlock).toBe(9);
    expect(f.tag?.value).toBe(0x1234n);
    const out = logFilterToJSON(f);
    const std = LogFilterSchema.parse(out);
    expect(std.afterLog?.toString()).toBe(id.toString());
    expect(std.tag?.toBigInt()).toBe(0x1234n);
    expect(() => logFilterFromJSON({ txHash: null })).toThrow(/filter\.txHash: null is not allowed/);
    expect(logFilterFromJSON({})).toEqual({});
  });
});

describe('log responses', () => {
  it("round-trip stdlib's public and contract class log pages", async () => {
    const pub = { logs: [await StdExtendedPublicLog.random(), await StdExtendedPublicLog.random()], maxLogsHit: true };
    const pubJson = jsonStringify(pub);
    const ours = getPublicLogsResponseFromJSON(JSON.parse(pubJson));
    expect(JSON.stringify(getPublicLogsResponseToJSON(ours))).toBe(pubJson);
    expect(GetPublicLogsResponseSchema.parse(JSON.parse(pubJson)).logs).toHaveLength(2);

    const cls = { logs: [await StdExtendedContractClassLog.random()], maxLogsHit: false };
    const clsJson = jsonStringify(cls);
    const oursCls = getContractClassLogsResponseFromJSON(JSON.parse(clsJson));
    expect(JSON.stringify(getContractClassLogsResponseToJSON(oursCls))).toBe(clsJson);
    expect(GetContractClassLogsResponseSchema.parse(JSON.parse(clsJson)).logs).toHaveLength(1);
  });
});

describe('TxScopedL2Log', () => {
  it("matches stdlib's JSON and bytes", () => {
    const std = StdTxScopedL2Log.random();
    const json = jsonStringify(std);
    const ours = TxScopedL2Log.fromJSON(JSON.parse(json));
    expect(JSON.stringify(ours)).toBe(json);
    expect(ours.toBuffer().equals(std.toBuffer())).toBe(true);
    expect(TxScopedL2Log.fromBuffer(std.toBuffer()).toBuffer().equals(std.toBuffer())).toBe(true);
  });
});

describe('DebugLog', () => {
  it("matches stdlib's JSON", async () => {
    const std = new StdDebugLog(await StdAztecAddress.random(), 'warn', 'hello', [new StdFr(3n)]);
    const json = jsonStringify(std);
    expect(JSON.stringify(DebugLog.fromJSON(JSON.parse(json)))).toBe(json);
    expect(() => DebugLog.fromJSON({ ...JSON.parse(json), level: 'loud' })).toThrow(/debugLog\.level/);
  });
});
