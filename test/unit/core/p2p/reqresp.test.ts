import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { MAX_L2_BLOCK_SIZE_KB, MAX_TX_SIZE_KB } from '@aztec/stdlib/p2p';
import { mockTx } from '@aztec/stdlib/testing';
import { TxHash as StdTxHash, TxArray, TxHashArray } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { Fr } from '../../../../src/core/fr.js';
import {
  decodeResponseChunks,
  errorResponseChunk,
  snappyMaxCompressedLength,
  successResponseChunks,
} from '../../../../src/core/p2p/reqresp-framing.js';
import {
  BitVector,
  decodeBlockRequest,
  decodeBlockTxsRequest,
  decodeBlockTxsResponse,
  decodeGoodbyeReason,
  decodeTxHashes,
  decodeTxs,
  encodeBlockRequest,
  encodeBlockTxsRequest,
  encodeBlockTxsResponse,
  encodeGoodbyeReason,
  encodeTxHashes,
  encodeTxs,
  GoodbyeReason,
  maxResponseBytes,
  PING_RESPONSE,
} from '../../../../src/core/p2p/reqresp-payloads.js';
import {
  parseStatusChunk,
  REQRESP_PROTOCOLS,
  ReqRespStatus,
  reqRespStatusName,
} from '../../../../src/core/p2p/reqresp-protocols.js';
import { snappyCompress } from '../../../../src/core/p2p/snappy-block.js';
import { decodeStatusMessage, encodeStatusMessage } from '../../../../src/core/p2p/status-message.js';
import { Tx } from '../../../../src/core/tx/tx.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';
import { importAztecP2p } from '../../../helpers/aztec-p2p-oracle/aztec-p2p-modules.js';

// biome-ignore lint/suspicious/noExplicitAny: the oracle's classes are loaded by file, without their types.
type Any = any;
let P: Any;
let Status: Any;
let Interface: Any;

beforeAll(async () => {
  await initAztecOracle();
  P = await importAztecP2p('services/reqresp/protocols/index.js');
  Status = await importAztecP2p('services/reqresp/status.js');
  Interface = await importAztecP2p('services/reqresp/interface.js');
});

describe('req/resp protocols and statuses', () => {
  it('are 4.1.2 ReqRespSubProtocol and ReqRespStatus', () => {
    expect(Object.values(REQRESP_PROTOCOLS).sort()).toEqual(
      Object.values(Interface.ReqRespSubProtocol)
        .filter((v) => typeof v === 'string' && v.startsWith('/'))
        .sort(),
    );
    for (const [name, value] of Object.entries(ReqRespStatus)) expect(Status.ReqRespStatus[name]).toBe(value);
    for (const chunk of [[0], [1], [4], [126], [127], [5], [0, 0], []]) {
      const c = Uint8Array.from(chunk);
      let theirs: number;
      try {
        theirs = Status.parseStatusChunk(c);
      } catch (e) {
        theirs = (e as { status: number }).status;
      }
      expect(parseStatusChunk(c)).toBe(theirs);
    }
    expect(reqRespStatusName(4)).toBe('NOT_FOUND');
  });

  it('bound each response as 4.1.2 subProtocolSizeCalculators do', () => {
    const calc = Interface.subProtocolSizeCalculators;
    const hashes = encodeTxHashes([new TxHash(1n), new TxHash(2n), new TxHash(3n)]);
    const blockTxs = encodeBlockTxsRequest({
      archiveRoot: new Fr(5n),
      txHashes: [],
      txIndices: BitVector.of(10, [1, 4]),
    });
    const cases: [keyof typeof REQRESP_PROTOCOLS, Buffer][] = [
      ['tx', hashes],
      ['tx', Buffer.alloc(0)],
      ['tx', Buffer.from([1, 2, 3])],
      ['block_txs', blockTxs],
      ['block_txs', Buffer.from([9])],
      ['block', encodeBlockRequest(3)],
      ['status', Buffer.alloc(0)],
      ['ping', Buffer.alloc(0)],
      ['goodbye', Buffer.from([1])],
      ['auth', Buffer.alloc(0)],
    ];
    for (const [name, request] of cases) {
      expect(maxResponseBytes(name, request)).toBe(calc[REQRESP_PROTOCOLS[name]](request) * 1024);
    }
    expect(maxResponseBytes('block', Buffer.alloc(0))).toBe(MAX_L2_BLOCK_SIZE_KB * 1024);
    expect(maxResponseBytes('tx', hashes)).toBe(3 * MAX_TX_SIZE_KB * 1024 + 1024);
  });
});

describe('response framing', () => {
  it('is a one-byte status chunk then a snappy block, read back as 4.1.2 readMessage does', () => {
    const body = Buffer.from('some response body '.repeat(20));
    const [status, compressed] = successResponseChunks(body);
    expect(Buffer.from(status)).toEqual(Buffer.from([0]));
    expect(decodeResponseChunks([status, compressed], 1024)).toEqual({ status: 0, data: body });
    expect(decodeResponseChunks([errorResponseChunk(ReqRespStatus.NOT_FOUND)], 1024)).toEqual({ status: 4 });
    expect(decodeResponseChunks([Uint8Array.of(0, 1)], 1024).status).toBe(ReqRespStatus.UNKNOWN);
    expect(decodeResponseChunks([], 1024).status).toBe(ReqRespStatus.UNKNOWN);
    expect(decodeResponseChunks([Uint8Array.of(0)], 10)).toEqual({ status: 0, data: Buffer.alloc(0) });
    const big = decodeResponseChunks([Uint8Array.of(0), snappyCompress(Buffer.alloc(2000))], 1024);
    expect(big.status).toBe(ReqRespStatus.UNKNOWN);
    expect('reason' in big && big.reason).toMatch(/exceeds the maximum of 1024/);
    expect(snappyMaxCompressedLength(600)).toBeGreaterThanOrEqual(
      snappyCompress(Buffer.from([...Array(600).keys()].map((i) => (i * 7919) & 0xff))).length,
    );
  });
});

describe('STATUS message', () => {
  it('encodes as 4.1.2 StatusMessage and decodes its bytes', () => {
    const hash = `0x${'1f'.repeat(32)}`;
    const theirs = new P.StatusMessage('00-31337-5fbdb231-1-00b5f2a1-00a1b2c3', 42, hash, 40);
    const ours = {
      compressedComponentsVersion: '00-31337-5fbdb231-1-00b5f2a1-00a1b2c3',
      latestBlockNumber: 42,
      latestBlockHash: hash,
      finalizedBlockNumber: 40,
    };
    expect(encodeStatusMessage(ours)).toEqual(theirs.toBuffer());
    expect(decodeStatusMessage(theirs.toBuffer())).toEqual(ours);
    expect(P.StatusMessage.fromBuffer(encodeStatusMessage(ours)).equals(theirs)).toBe(true);
  });

  it('refuses over-long strings, short input and trailing bytes', () => {
    const long = encodeStatusMessage({
      compressedComponentsVersion: 'v'.repeat(65),
      latestBlockNumber: 1,
      latestBlockHash: '0x',
      finalizedBlockNumber: 0,
    });
    expect(() => P.StatusMessage.fromBuffer(long)).toThrow();
    expect(() => decodeStatusMessage(long)).toThrow(/compressedComponentsVersion.*longer than the 64/);
    const ok = encodeStatusMessage({
      compressedComponentsVersion: 'v',
      latestBlockNumber: 1,
      latestBlockHash: '0x',
      finalizedBlockNumber: 0,
    });
    expect(() => decodeStatusMessage(ok.subarray(0, ok.length - 1))).toThrow(/finalizedBlockNumber/);
    expect(() => decodeStatusMessage(Buffer.concat([ok, Buffer.from([0])]))).toThrow(/trailing/);
  });
});

describe('req/resp payloads', () => {
  it('ping answers pong; goodbye is one reason byte, as 4.1.2', async () => {
    expect(PING_RESPONSE).toEqual(await P.pingHandler(Buffer.alloc(0)));
    for (const [name, value] of Object.entries(GoodbyeReason)) {
      expect(P.GoodByeReason[name]).toBe(value);
      expect(encodeGoodbyeReason(value)).toEqual(P.encodeGoodbyeReason(value));
    }
    for (const b of [[1], [5], [9], [], [1, 2]]) {
      expect(decodeGoodbyeReason(Buffer.from(b))).toBe(P.decodeGoodbyeReason(Buffer.from(b)));
    }
  });

  it('tx: hashes and txs as TxHashArray and TxArray', async () => {
    const stdTxs = [await mockTx(1), await mockTx(2, { numberOfRevertibleNullifiers: 2, publicCalldataSize: 3 })];
    const stdHashes = new TxHashArray(...stdTxs.map((t) => t.getTxHash()), StdTxHash.random());
    const hashes = decodeTxHashes(stdHashes.toBuffer());
    expect(hashes.map((h) => h.toString())).toEqual(stdHashes.map((h) => h.toString()));
    expect(encodeTxHashes(hashes)).toEqual(stdHashes.toBuffer());

    const stdArray = new TxArray(...stdTxs);
    const txs = decodeTxs(stdArray.toBuffer());
    expect(txs.map((t) => t.txHash.toString())).toEqual(stdTxs.map((t) => t.getTxHash().toString()));
    expect(encodeTxs(txs)).toEqual(stdArray.toBuffer());
    expect(encodeTxs([])).toEqual(new TxArray().toBuffer());
    expect(() => decodeTxHashes(Buffer.from([0, 1, 0, 1]))).toThrow(/more than the 65536/);
    expect(() => decodeTxHashes(Buffer.from([0, 0, 0, 2, 1]))).toThrow(/2 hashes need 64 bytes/);
  });

  it('block: the number as a 32-byte field', () => {
    expect(encodeBlockRequest(77)).toEqual(new StdFr(77).toBuffer());
    expect(decodeBlockRequest(new StdFr(77).toBuffer())).toBe(77);
    expect(() => decodeBlockRequest(new StdFr(2n ** 40n).toBuffer())).toThrow(/not a block number/);
    expect(() => decodeBlockRequest(Buffer.alloc(31))).toThrow(/blockNumber/);
  });

  it('block_txs: request and response as 4.1.2 BlockTxsRequest, BlockTxsResponse and BitVector', async () => {
    const stdTx = await mockTx(3);
    const archive = StdFr.random();
    const stdReq = new P.BlockTxsRequest(archive, new TxHashArray(stdTx.getTxHash()), P.BitVector.init(19, [0, 8, 18]));
    const req = decodeBlockTxsRequest(stdReq.toBuffer());
    expect(req.txIndices.setIndices()).toEqual([0, 8, 18]);
    expect(req.txIndices.length).toBe(19);
    expect(encodeBlockTxsRequest(req)).toEqual(stdReq.toBuffer());
    expect(encodeBlockTxsRequest({ ...req, txIndices: BitVector.of(19, [0, 8, 18]) })).toEqual(stdReq.toBuffer());

    const stdRes = new P.BlockTxsResponse(archive, new TxArray(stdTx), P.BitVector.init(3, [2]));
    const res = decodeBlockTxsResponse(stdRes.toBuffer());
    expect(res.archiveRoot.toString()).toBe(archive.toString());
    expect(res.txs[0]?.txHash.toString()).toBe(stdTx.getTxHash().toString());
    expect(encodeBlockTxsResponse(res)).toEqual(stdRes.toBuffer());
    expect(P.BlockTxsResponse.fromBuffer(encodeBlockTxsResponse(res)).txIndices.getTrueIndices()).toEqual([2]);
    expect(() => BitVector.of(4, [4])).toThrow(/out of bounds/);
    expect(() => decodeBlockTxsRequest(Buffer.concat([stdReq.toBuffer(), Buffer.from([0])]))).toThrow(/trailing/);
  });

  it('reads txs of the binary form Tx.fromBuffer reads, one after another', async () => {
    const std = await mockTx(4);
    const one = Tx.fromBuffer(std.toBuffer());
    expect(decodeTxs(encodeTxs([one, one])).map((t) => t.toBuffer())).toEqual([std.toBuffer(), std.toBuffer()]);
  });
});
