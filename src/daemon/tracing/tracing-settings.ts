import { byteSize } from '../config/byte-size-setting.js';
import { parseBoolean, parseInteger } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';

/** Debug prints of built blocks and the bounds of traces (docs/debugging.md). */
export const TRACING_SETTINGS = {
  debugLogs: setting<boolean>({
    key: 'debugLogs',
    flag: 'debug-logs',
    env: 'NODE_DEBUG_LOGS',
    defaultValue: true,
    parse: parseBoolean,
    parseJson: (v) => parseBoolean(String(v)),
    kind: 'string',
    runtime: true,
    group: 'Debugging',
    description:
      'Print the public debug_log output of the txs in the blocks this node builds to its log (one line each, with ' +
      "contract, function and tx hash) and attach it to the txs' receipts (debugLogs), as 4.1.2 does in test mode. " +
      'false turns it off (DEBUGLOG then only charges its gas).',
  }),
  debugLogMaxBytesPerTx: byteSize(
    'debugLogMaxBytesPerTx',
    'debug-log-max-bytes-per-tx',
    'NODE_DEBUG_LOG_MAX_BYTES_PER_TX',
    64 * 1024,
    'Debugging',
    "Most bytes of debug prints kept for one tx's receipt (message plus 32 bytes a field); later prints are " +
      'counted in a last line instead. The node keeps the prints of the latest 1024 txs that printed.',
  ),
  traceMaxSteps: setting<number>({
    key: 'traceMaxSteps',
    flag: 'trace-max-steps',
    env: 'NODE_TRACE_MAX_STEPS',
    defaultValue: 1_000_000,
    parse: parseInteger(1, 10_000_000),
    kind: 'string',
    group: 'Debugging',
    description:
      'Most instructions an opcode trace (nodeDev_traceTx with opcodes) may hold; a longer one is refused with ' +
      'LIMIT_EXCEEDED. A request may ask for fewer.',
  }),
  traceMaxBytes: byteSize(
    'traceMaxBytes',
    'trace-max-bytes',
    'NODE_TRACE_MAX_BYTES',
    64 * 1024 * 1024,
    'Debugging',
    'Most bytes an opcode trace may hold (about 80 bytes a step); a larger one is refused with LIMIT_EXCEEDED. ' +
      'A request may ask for fewer.',
  ),
} as const;

export type TracingConfig = SettingValues<typeof TRACING_SETTINGS>;
