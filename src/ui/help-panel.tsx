import { Text } from 'ink';
import { Panel } from './panel.js';

export interface HelpPanelProps {
  /** False when stdin is not a terminal: keys cannot be read, only Ctrl+C stops the dashboard. */
  readonly keysEnabled: boolean;
}

const KEYS: readonly [string, string][] = [
  ['q', 'quit'],
  ['p', 'pause or resume sync (asks y/n; nodeAdmin_pauseSync / nodeAdmin_resumeSync)'],
  ['Tab', 'next view: overview, blocks, events'],
  ['Up/Down', 'blocks view: select a block'],
  ['Enter', "blocks view: trace the selected block's txs (calls, gas, revert; nodeDev_traceTx)"],
  ['?', 'show or hide this help'],
  ['Ctrl+C', 'quit'],
];

/** The keys, and what the panels mean. */
export function HelpPanel({ keysEnabled }: HelpPanelProps) {
  return (
    <Panel title="Help">
      {KEYS.map(([key, what]) => (
        <Text key={key} wrap="truncate">
          <Text bold>{key.padEnd(8)}</Text>
          {what}
        </Text>
      ))}
      {keysEnabled ? null : <Text color="yellow">stdin is not a terminal: keys are off, Ctrl+C quits</Text>}
      <Text dimColor wrap="truncate">
        Figures not known yet show as --. Rates are rolling averages over the last 10 s.
      </Text>
    </Panel>
  );
}
