import { BlockNumber } from '@aztec/foundation/branded-types';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { L2Block as StdL2Block } from '@aztec/stdlib/block';
import { beforeAll, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { L2Block } from '../../../../src/core/block/l2-block.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

/** stdlib's JSON of a block whose header hash was computed carries `_cachedHash`; the wire form we emit does not. */
function stdJson(b: StdL2Block): string {
  const o = JSON.parse(jsonStringify(b));
  delete o.header._cachedHash;
  return JSON.stringify(o);
}

describe('L2Block', () => {
  it("parses stdlib's random blocks and re-serialises the same JSON, bytes and hash", async () => {
    for (const txsPerBlock of [0, 1, 3]) {
      const std = await StdL2Block.random(BlockNumber(7), { txsPerBlock, indexWithinCheckpoint: 2 as never });
      const stdHash = (await std.hash()).toString();
      const ours = L2Block.fromJSON(JSON.parse(jsonStringify(std)));
      expect(JSON.stringify(ours)).toBe(stdJson(std));
      expect(ours.hash().toString()).toBe(stdHash);
      expect(ours.number).toBe(7);
      expect(ours.indexWithinCheckpoint).toBe(2);
      const bytes = std.toBuffer();
      expect(ours.toBuffer().equals(bytes)).toBe(true);
      expect(L2Block.fromBuffer(bytes).equals(ours)).toBe(true);
      // and stdlib reads what we write
      const back = StdL2Block.schema.parse(JSON.parse(JSON.stringify(ours)));
      expect(back.equals(std)).toBe(true);
    }
  });

  it('has the 4.1.2 key order and an empty genesis form', () => {
    const b = L2Block.empty(BlockHeader.empty());
    expect(Object.keys(JSON.parse(JSON.stringify(b)))).toEqual([
      'archive',
      'header',
      'body',
      'checkpointNumber',
      'indexWithinCheckpoint',
    ]);
    expect(JSON.parse(JSON.stringify(b)).body).toEqual({ txEffects: [] });
  });

  it('names the bad field deep inside a block', async () => {
    const std = await StdL2Block.random(BlockNumber(3), { txsPerBlock: 2 });
    const json = JSON.parse(jsonStringify(std));
    json.body.txEffects[1].nullifiers[0] = '0x0';
    expect(() => L2Block.fromJSON(json)).toThrow(
      /^block\.body\.txEffects\[1\]\.nullifiers\[0\]: a nullifier must not be zero/,
    );
    json.body.txEffects[1].nullifiers[0] = 7;
    expect(() => L2Block.fromJSON(json)).toThrow(/^block\.body\.txEffects\[1\]\.nullifiers\[0\]: expected a field/);
    expect(() => L2Block.fromBuffer(std.toBuffer().subarray(0, 600))).toThrow(/^block\.body\.txEffects\[0\]/);
  });
});
