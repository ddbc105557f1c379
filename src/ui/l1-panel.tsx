import { Text } from 'ink';
import { describeL1Tx } from '../rpc/l1-tx-text.js';
import type { StreamL1, StreamL1Tx } from '../rpc/node-stream-event.js';
import { Panel } from './panel.js';
import { abbreviateHex, formatCount, formatEth, UNKNOWN } from './text-format.js';

export interface L1PanelProps {
  readonly l1: StreamL1;
  readonly flexGrow?: number;
  readonly height?: number;
}

/**
 * The node's L1 (shown only when it has one): chain, latest block and whether it answers, the rollup, the
 * publisher's ETH (yellow when under one proposal's cost), the last proposal and proof (red when they failed).
 */
export function L1Panel({ l1, flexGrow, height }: L1PanelProps) {
  const balance = l1.publisher.balanceWei === undefined ? UNKNOWN : formatEth(l1.publisher.balanceWei);
  return (
    <Panel title="L1" flexGrow={flexGrow} height={height}>
      <Text wrap="truncate">
        {`chain ${l1.chainId} · block ${formatCount(l1.blockNumber)} · `}
        {l1.reachable ? (
          <Text color="green">● reachable</Text>
        ) : (
          <Text color="red">{`✗ unreachable: ${l1.lastError ?? 'no answer'}`}</Text>
        )}
      </Text>
      <Text wrap="truncate">{`rollup ${abbreviateHex(l1.rollupAddress)}`}</Text>
      <Text wrap="truncate">
        {`publisher ${abbreviateHex(l1.publisher.address)} · `}
        {l1.publisher.lowBalance ? <Text color="yellow">{`${balance} LOW`}</Text> : balance}
      </Text>
      <TxLine label="proposal" tx={l1.lastProposal} />
      <TxLine label="proof" tx={l1.lastProof} />
    </Panel>
  );
}

function TxLine({ label, tx }: { readonly label: string; readonly tx: StreamL1Tx | null }) {
  if (!tx) return <Text wrap="truncate">{`${label}: ${UNKNOWN}`}</Text>;
  return (
    <Text wrap="truncate" color={tx.ok ? undefined : 'red'}>
      {`${label}: ${describeL1Tx(tx, (h) => abbreviateHex(h))}`}
    </Text>
  );
}
