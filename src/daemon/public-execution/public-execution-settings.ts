import { availableParallelism } from 'node:os';
import { parseInteger } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';

/** The caller workers: as set, else one core stays with the event loop (RPC, /status, block commits), at least one. */
export function publicExecutionWorkers(config: PublicExecutionConfig): number {
  return config.publicExecutionWorkers ?? Math.max(1, availableParallelism() - 1);
}

/**
 * The budgets of public execution (docs/reliability.md): the AVM runs in a pool of worker threads, never on the
 * event loop, and each of these bounds what a caller can make it spend.
 */
export const PUBLIC_EXECUTION_SETTINGS = {
  publicExecutionWorkers: setting<number | undefined>({
    key: 'publicExecutionWorkers',
    flag: 'public-execution-workers',
    env: 'NODE_PUBLIC_EXECUTION_WORKERS',
    // Unset rather than a number: the default depends on the machine (and the docs must not).
    defaultValue: undefined,
    parse: parseInteger(1, 256),
    kind: 'string',
    group: 'Public execution',
    description:
      'Worker threads that run public calls (node_simulatePublicCalls, the public part of tx validation, the ' +
      'sequencer’s public txs); each runs one at a time. Unset: the cores minus one, at least 1.',
  }),
  publicExecutionMaxQueue: setting<number>({
    key: 'publicExecutionMaxQueue',
    flag: 'public-execution-max-queue',
    env: 'NODE_PUBLIC_EXECUTION_MAX_QUEUE',
    defaultValue: 16,
    parse: parseInteger(0, 100_000),
    kind: 'string',
    group: 'Public execution',
    description:
      'Public executions that may wait for a free worker; when full, a simulation or validation is refused at ' +
      'once with LIMIT_EXCEEDED naming this setting (retry later). The sequencer’s txs never wait behind it.',
  }),
  publicSimulationTimeoutMs: setting<number>({
    key: 'publicSimulationTimeoutMs',
    flag: 'public-simulation-timeout-ms',
    env: 'NODE_PUBLIC_SIMULATION_TIMEOUT_MS',
    defaultValue: 5000,
    parse: parseInteger(10, 600_000),
    kind: 'string',
    group: 'Public execution',
    description:
      'Wall-clock budget of one public execution for a caller (node_simulatePublicCalls, node_isValidTx, ' +
      'node_sendTx), queueing excluded; past it the call answers LIMIT_EXCEEDED naming this setting and its ' +
      'worker is replaced.',
  }),
  publicExecutionMemoryMb: setting<number>({
    key: 'publicExecutionMemoryMb',
    flag: 'public-execution-memory-mb',
    env: 'NODE_PUBLIC_EXECUTION_MEMORY_MB',
    defaultValue: 512,
    parse: parseInteger(64, 65_536),
    kind: 'string',
    group: 'Public execution',
    description:
      'Heap cap of each public execution worker (MB); a tx whose execution needs more answers LIMIT_EXCEEDED ' +
      'naming this setting, and the worker is replaced.',
  }),
  blockBuildTimeMs: setting<number | undefined>({
    key: 'blockBuildTimeMs',
    flag: 'block-build-time-ms',
    env: 'NODE_BLOCK_BUILD_TIME_MS',
    defaultValue: undefined,
    parse: parseInteger(50, 3_600_000),
    kind: 'string',
    group: 'Public execution',
    description:
      'How long the sequencer may spend processing the txs of one block; the block then closes with the txs ' +
      'done so far and the rest wait for the next one; a tx that alone takes longer is dropped. Unset: the ' +
      'block interval (slot duration / blocks per slot).',
  }),
} as const;

export type PublicExecutionConfig = SettingValues<typeof PUBLIC_EXECUTION_SETTINGS>;
