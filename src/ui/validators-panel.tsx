import { Text } from 'ink';
import type { StreamValidators } from '../rpc/node-stream-event.js';
import { Panel } from './panel.js';
import { abbreviateHex, UNKNOWN } from './text-format.js';

export interface ValidatorsPanelProps {
  readonly validators: StreamValidators | undefined;
  /** Slot result lines that fit. */
  readonly rows: number;
  readonly flexGrow?: number;
  readonly height?: number;
}

/** The committee: keys held here, misses over the sentinel's window, and the latest judged slots. */
export function ValidatorsPanel({ validators: v, rows, flexGrow, height }: ValidatorsPanelProps) {
  if (!v) {
    return (
      <Panel title="Validators" flexGrow={flexGrow} height={height}>
        <Text dimColor>{UNKNOWN}</Text>
      </Panel>
    );
  }
  if (!v.enabled) {
    return (
      <Panel title="Validators" flexGrow={flexGrow} height={height}>
        <Text wrap="truncate">no committee: the sequencer builds every slot</Text>
        <Text dimColor wrap="truncate">
          (--keystore-directory runs one)
        </Text>
      </Panel>
    );
  }
  const ratio = (m: { count: number; total: number }) =>
    m.total === 0 ? `0 of 0` : `${m.count} of ${m.total} (${((m.count * 100) / m.total).toFixed(1)}%)`;
  return (
    <Panel title="Validators" flexGrow={flexGrow} height={height}>
      <Text wrap="truncate">
        {`${v.keys} keys here · ${v.tracked} tracked · last slot ${v.lastProcessedSlot ?? UNKNOWN}`}
      </Text>
      <Text wrap="truncate">
        {'missed proposals    '}
        <Text color={v.missedProposals.count > 0 ? 'yellow' : 'green'}>{ratio(v.missedProposals)}</Text>
      </Text>
      <Text wrap="truncate">
        {'missed attestations '}
        <Text color={v.missedAttestations.count > 0 ? 'yellow' : 'green'}>{ratio(v.missedAttestations)}</Text>
      </Text>
      {v.recentSlots
        .slice(-Math.max(0, rows))
        .reverse()
        .map((s) => {
          const missed = s.status === 'checkpoint-missed' || s.status === 'blocks-missed';
          return (
            <Text key={s.slot} wrap="truncate">
              {`slot ${s.slot} ${abbreviateHex(s.proposer, 4)} `}
              <Text color={missed ? 'red' : 'green'}>{s.status}</Text>
              <Text dimColor>{` ${s.attestationsSent}✓ ${s.attestationsMissed}✗`}</Text>
            </Text>
          );
        })}
    </Panel>
  );
}
