/**
 * The built blocks' debug prints as the node keeps them (docs/debugging.md): one log line per print naming the
 * contract, the function and the tx; the receipt's debugLogs bounded by --debug-log-max-bytes-per-tx with a last
 * line counting what was not kept; the prints crossing from the sequencer's worker as JSON unchanged.
 */
import { describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { Fr } from '../../../../src/core/fr.js';
import { DebugLog } from '../../../../src/core/logs/debug-log.js';
import { TxReceipt } from '../../../../src/core/tx/tx-receipt.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import type { Logger } from '../../../../src/daemon/logging/logger.js';
import {
  DebugPrintStore,
  debugPrintsFromJson,
  debugPrintsToJson,
} from '../../../../src/daemon/tracing/debug-print-store.js';
import type { TracingConfig } from '../../../../src/daemon/tracing/tracing-settings.js';

const CONTRACT = new AztecAddress(0xc0ffeen);
const TX = new TxHash(0x7e57n);

function store(config: Partial<TracingConfig> = {}) {
  const lines: { fields: Record<string, unknown>; msg: string }[] = [];
  const log = {
    info: (fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg }),
  } as unknown as Logger;
  const full = { debugLogs: true, debugLogMaxBytesPerTx: 64 * 1024, traceMaxSteps: 1, traceMaxBytes: 1, ...config };
  return { prints: new DebugPrintStore(full, log), lines };
}

const print = (message: string, fields: bigint[] = []) =>
  new DebugLog(
    CONTRACT,
    'info',
    message,
    fields.map((f) => new Fr(f)),
  );
const mined = () => new TxReceipt({ txHash: TX, status: 'proposed', blockNumber: 3 });

describe('DebugPrintStore', () => {
  it('logs each print with contract, function and tx, and attaches them to the mined receipt', () => {
    const { prints, lines } = store();
    const json = debugPrintsToJson(
      { debugLogs: [print('balance {0}', [5n]), print('done')], debugLogSelectors: [0x1234, undefined] },
      { getFunctionName: (s) => (s === 0x1234 ? 'transfer_in_public' : undefined) },
    );
    prints.blockCommitted(3, [{ txHash: TX, prints: debugPrintsFromJson(json) }]);
    expect(lines.map((l) => l.msg)).toEqual([
      `debug_log ${CONTRACT}:transfer_in_public (tx ${TX}): balance ${new Fr(5n)}`,
      `debug_log ${CONTRACT} (tx ${TX}): done`,
    ]);
    expect(lines[0]?.fields).toMatchObject({ txHash: TX.toString(), functionName: 'transfer_in_public' });
    expect(prints.decorate(mined()).debugLogs?.map((l) => l.message)).toEqual(['balance {0}', 'done']);
    expect(prints.decorate(new TxReceipt({ txHash: TX, status: 'pending' })).debugLogs).toBeUndefined();
  });

  it('keeps at most --debug-log-max-bytes-per-tx of one tx, and counts the rest in a last line', () => {
    const { prints } = store({ debugLogMaxBytesPerTx: 100 });
    const logs = Array.from({ length: 10 }, (_, i) => ({
      log: print(`print number ${i}`, [1n]),
      functionName: undefined,
    }));
    prints.blockCommitted(3, [{ txHash: TX, prints: logs }]);
    const kept = prints.decorate(mined()).debugLogs ?? [];
    // Each print counts its message and 32 bytes a field: 46 bytes, so two fit in 100.
    expect(kept.map((l) => l.message)).toEqual([
      'print number 0',
      'print number 1',
      '8 more debug logs of this tx not kept (--debug-log-max-bytes-per-tx 100)',
    ]);
  });
});
