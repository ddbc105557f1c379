import { jsonStringify } from '@aztec/foundation/json-rpc';
import { randomIndexedTxEffect, TxEffect as StdTxEffect } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { Fr } from '../../../../src/core/fr.js';
import { PrivateLog } from '../../../../src/core/logs/private-log.js';
import { IndexedTxEffect } from '../../../../src/core/tx/indexed-tx-effect.js';
import { TxEffect } from '../../../../src/core/tx/tx-effect.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

describe('TxEffect', () => {
  it("round-trips stdlib's random effects through JSON and bytes identically", async () => {
    const samples = [
      await StdTxEffect.random(),
      await StdTxEffect.random({ numNoteHashes: 64, numNullifiers: 64, numPrivateLogs: 64, numContractClassLogs: 1 }),
      await StdTxEffect.random({ maxEffects: 0, numPublicCallsPerTx: 0 }),
      StdTxEffect.empty(),
    ];
    for (const std of samples) {
      const json = jsonStringify(std);
      const ours = TxEffect.fromJSON(JSON.parse(json));
      expect(JSON.stringify(ours)).toBe(json);
      expect(ours.toBuffer().equals(std.toBuffer())).toBe(true);
      expect(ours.getSize()).toBe(std.toBuffer().length);
      expect(TxEffect.fromBuffer(std.toBuffer()).equals(ours)).toBe(true);
      expect(StdTxEffect.schema.parse(JSON.parse(JSON.stringify(ours))).equals(std)).toBe(true);
    }
  });

  it('rejects what 4.1.2 rejects, naming the field', () => {
    const base = JSON.parse(JSON.stringify(TxEffect.empty()));
    expect(() => TxEffect.fromJSON({ ...base, noteHashes: ['0x00'] })).toThrow(
      /^txEffect\.noteHashes\[0\]: a note hash must not be zero/,
    );
    expect(() => TxEffect.fromJSON({ ...base, revertCode: 4 })).toThrow(/txEffect\.revertCode: expected 0, 1, 2 or 3/);
    expect(() => TxEffect.fromJSON({ ...base, nullifiers: new Array(65).fill('0x1') })).toThrow(
      /txEffect\.nullifiers: at most 64 entries/,
    );
    expect(() => TxEffect.fromJSON({ ...base, publicDataWrites: [{ leafSlot: '0x0', value: '0x0' }] })).toThrow(
      /publicDataWrites\[0\]: a public data write must not be empty/,
    );
    expect(() => TxEffect.fromJSON({ ...base, txHash: '0x12' })).toThrow(/txEffect\.txHash: A tx hash has 32 bytes/);
  });
});

describe('PrivateLog', () => {
  const log = PrivateLog.fromEmitted([new Fr(5n), new Fr(6n)]);

  it('is strict about its keys and its 16 fields', () => {
    const json = JSON.parse(JSON.stringify(log));
    expect(json.fields).toHaveLength(16);
    expect(PrivateLog.fromJSON(json).equals(log)).toBe(true);
    expect(() => PrivateLog.fromJSON({ ...json, extra: 1 })).toThrow(/unrecognized key "extra"/);
    expect(() => PrivateLog.fromJSON({ ...json, fields: json.fields.slice(1) })).toThrow(
      /exactly 16 fields, received 15/,
    );
    expect(() => PrivateLog.fromJSON({ ...json, emittedLength: 17 })).toThrow(/privateLog\.emittedLength/);
    expect(log.tag.value).toBe(5n);
  });
});

describe('IndexedTxEffect', () => {
  it("reads and writes stdlib's JSON", async () => {
    const std = await randomIndexedTxEffect();
    const json = jsonStringify(std);
    const ours = IndexedTxEffect.fromJSON(JSON.parse(json));
    expect(JSON.stringify(ours)).toBe(json);
    expect(IndexedTxEffect.fromBuffer(ours.toBuffer()).toBuffer().equals(ours.toBuffer())).toBe(true);
  });
});
