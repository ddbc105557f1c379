import { jsonStringify } from '@aztec/foundation/json-rpc';
import { CheckpointHeader as StdCheckpointHeader } from '@aztec/stdlib/rollup';
import { BlockHeader as StdBlockHeader } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppendOnlyTreeSnapshot } from '../../../../src/core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { CheckpointHeader } from '../../../../src/core/block/checkpoint-header.js';
import { PartialStateReference } from '../../../../src/core/block/partial-state-reference.js';
import { StateReference } from '../../../../src/core/block/state-reference.js';
import { Fr } from '../../../../src/core/fr.js';
import { DecodeError } from '../../../../src/core/serialize/decode-error.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';
import { vectors } from '../../../helpers/vectors.js';

const g = vectors.genesis;

function genesisHeader(): BlockHeader {
  const snap = (root: string, size: number) => new AppendOnlyTreeSnapshot(Fr.fromString(root), size);
  return BlockHeader.empty({
    state: new StateReference(
      snap(g.l1ToL2MessageTreeRoot, 0),
      new PartialStateReference(
        snap(g.noteHashTreeRoot, 0),
        snap(g.nullifierTreeRoot, g.nullifierTreeSize),
        snap(g.publicDataTreeRoot, g.publicDataTreeSize),
      ),
    ),
  });
}

/** 4.1.2 serialises a header with the `_cachedHash` memo once it has been hashed; we leave it out. */
function stdJsonWithoutCache(h: StdBlockHeader): string {
  const o = JSON.parse(jsonStringify(h));
  delete o._cachedHash;
  return JSON.stringify(o);
}

beforeAll(initAztecOracle);

describe('BlockHeader', () => {
  it('hashes the all-zero header to the 4.1.2 vector', () => {
    expect(BlockHeader.empty().hash().toString()).toBe(g.emptyBlockHeaderHash);
  });

  it('hashes the genesis header to GENESIS_BLOCK_HEADER_HASH', () => {
    const h = genesisHeader();
    expect(h.hash().toString()).toBe(g.blockHeaderHash);
    expect(h.toFields()).toHaveLength(22);
  });

  it('serialises to 440 bytes and parses them back', () => {
    const h = genesisHeader();
    const buf = h.toBuffer();
    expect(buf.length).toBe(440);
    const back = BlockHeader.fromBuffer(buf);
    expect(back.equals(h)).toBe(true);
    expect(back.toBuffer().equals(buf)).toBe(true);
  });

  it("matches stdlib's binary form, fields, JSON and hash for random headers", async () => {
    for (let i = 0; i < 5; i++) {
      const std = StdBlockHeader.random();
      const stdHash = (await std.hash()).toString();
      const json = JSON.parse(jsonStringify(std));
      expect(json._cachedHash).toBeDefined(); // the artefact we must tolerate

      const ours = BlockHeader.fromJSON(json);
      expect(JSON.stringify(ours)).toBe(stdJsonWithoutCache(std));
      expect(ours.toBuffer().equals(std.toBuffer())).toBe(true);
      expect(ours.toFields()).toEqual(std.toFields().map((f) => f.toBigInt()));
      expect(ours.hash().toString()).toBe(stdHash);

      const fromBin = BlockHeader.fromBuffer(std.toBuffer());
      expect(fromBin.equals(ours)).toBe(true);
      // stdlib reads our JSON back to the same header
      const stdBack = StdBlockHeader.schema.parse(JSON.parse(JSON.stringify(ours)));
      expect(stdBack.equals(std)).toBe(true);
    }
  });

  it('writes slotNumber as an Fr hex string, timestamp as decimal, blockNumber as a number', () => {
    const json = JSON.parse(JSON.stringify(BlockHeader.empty()));
    expect(json.globalVariables.slotNumber).toBe(`0x${'0'.repeat(64)}`);
    expect(json.globalVariables.timestamp).toBe('0');
    expect(json.globalVariables.blockNumber).toBe(0);
    expect(json.totalFees).toBe(`0x${'0'.repeat(64)}`);
    expect(Object.keys(json)).toEqual([
      'lastArchive',
      'state',
      'spongeBlobHash',
      'globalVariables',
      'totalFees',
      'totalManaUsed',
    ]);
  });

  it('reads slotNumber leniently (number, decimal, hex) and ignores stray keys', () => {
    const base = JSON.parse(JSON.stringify(BlockHeader.empty()));
    for (const slot of [1294, '1294', '0x50e', `0x${'0'.repeat(61)}50e`]) {
      base.globalVariables.slotNumber = slot;
      base.strayKey = { anything: true };
      expect(BlockHeader.fromJSON(base).slotNumber).toBe(1294);
    }
  });

  it('names the bad field in parse errors', () => {
    const base = JSON.parse(JSON.stringify(BlockHeader.empty()));
    base.state.partial.nullifierTree.root = 'zz';
    expect(() => BlockHeader.fromJSON(base)).toThrow(DecodeError);
    expect(() => BlockHeader.fromJSON(base)).toThrow(/^header\.state\.partial\.nullifierTree\.root: /);
    const base2 = JSON.parse(JSON.stringify(BlockHeader.empty()));
    base2.globalVariables.timestamp = -1;
    expect(() => BlockHeader.fromJSON(base2)).toThrow(/header\.globalVariables\.timestamp/);
    expect(() => BlockHeader.fromBuffer(Buffer.alloc(300))).toThrow(/header\.globalVariables\.\w+: needs/);
    expect(() => BlockHeader.fromBuffer(Buffer.alloc(441))).toThrow(/trailing/);
    const tooBig = Buffer.alloc(440, 0xff);
    expect(() => BlockHeader.fromBuffer(tooBig)).toThrow(/header\.lastArchive\.root: value 0xff+ is not below/);
  });
});

describe('CheckpointHeader', () => {
  it('hashes the empty header to GENESIS_CHECKPOINT_HEADER_HASH from its 316 bytes', () => {
    const h = CheckpointHeader.empty();
    expect(h.toBuffer().length).toBe(316);
    expect(h.hash().toString()).toBe(g.checkpointHeaderHash);
  });

  it("matches stdlib's bytes, JSON and hash", () => {
    for (let i = 0; i < 5; i++) {
      const std = StdCheckpointHeader.random();
      const json = JSON.parse(jsonStringify(std));
      const ours = CheckpointHeader.fromJSON(json);
      expect(JSON.stringify(ours)).toBe(jsonStringify(std));
      expect(ours.toBuffer().equals(std.toBuffer())).toBe(true);
      expect(ours.hash().toString()).toBe(std.hash().toString());
      expect(CheckpointHeader.fromBuffer(std.toBuffer()).equals(ours)).toBe(true);
    }
  });
});
