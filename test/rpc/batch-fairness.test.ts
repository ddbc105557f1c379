import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { SLICE_MS } from '../../src/rpc/server/event-loop-turns.js';
import { MethodDispatcher } from '../../src/rpc/server/method-dispatcher.js';
import { testHandlers } from '../helpers/test-handlers.js';
import { until } from '../helpers/until.js';

/**
 * Big batches take turns with everything else on the event loop: checked by the order in which work runs (how many
 * batch items ran before a probe's handler), not by milliseconds. Each batch item holds the loop for longer than
 * the scheduler's slice, as a node_getBlocks(1,100) does (about 5 ms of SQLite reads and serialising).
 */
let heavyRuns = 0;
let heavyRunsAtProbe: number | undefined;
const dispatcher = new MethodDispatcher({
  listener: 'public',
  handlers: testHandlers({
    node_getChainId: (() => {
      heavyRuns++;
      const end = performance.now() + SLICE_MS + 1;
      while (performance.now() < end) {
        // Synchronous work past the slice, as a big item's SQLite reads are.
      }
      return Promise.resolve(31337);
    }) as never,
    node_getBlockNumber: async () => {
      heavyRunsAtProbe = heavyRuns;
      return 12;
    },
  }),
  maxBatchSize: 100,
  maxResponseSize: 25 * 1024 * 1024,
  log: pino({ level: 'silent' }),
  notServing: () => undefined,
});

const heavyBatch = (n: number) =>
  Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', id, method: 'node_getChainId', params: [] }));
const probe = { jsonrpc: '2.0', id: 'probe', method: 'node_getBlockNumber', params: [] };

describe('batches take turns with other requests', () => {
  it('24 batches read in one poll start one item, not 24, before a request read after them', async () => {
    heavyRuns = 0;
    heavyRunsAtProbe = undefined;
    let answered = 0;
    for (let i = 0; i < 24; i++) dispatcher.dispatch(heavyBatch(3), () => answered++);
    let probeAnswer: unknown;
    dispatcher.dispatch(probe, (a) => {
      probeAnswer = a;
    });
    await until('every answer', () => (answered === 24 && probeAnswer !== undefined) || undefined);
    expect(heavyRuns).toBe(72);
    // Before the fair start each batch ran its first item as its request was read: 24 before the probe.
    expect(heavyRunsAtProbe).toBeLessThanOrEqual(1);
  });

  it('answers a request that arrives during a big batch between its items, not after all of them', async () => {
    heavyRuns = 0;
    heavyRunsAtProbe = undefined;
    let batchAnswer: unknown;
    dispatcher.dispatch(heavyBatch(10), (a) => {
      batchAnswer = a;
    });
    // The next request read by the loop (a check phase after the batch began).
    setImmediate(() => dispatcher.dispatch(probe, () => {}));
    await until('the batch answer', () => batchAnswer);
    expect(JSON.parse((batchAnswer as { text: string }).text)).toEqual(
      Array.from({ length: 10 }, (_, id) => ({ jsonrpc: '2.0', id, result: 31337 })),
    );
    // Before the time slice a batch of small answers ran item after item until 64 KB of answers: all 10 first.
    expect(heavyRunsAtProbe).toBeLessThanOrEqual(2);
  });
});
