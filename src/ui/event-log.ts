import { describeL1Tx } from '../rpc/l1-tx-text.js';
import type {
  NodeStreamEvent,
  StreamL1,
  StreamL1Tx,
  StreamSnapshotUpload,
  StreamSyncProgress,
  StreamTips,
} from '../rpc/node-stream-event.js';
import { abbreviateHex, formatCount, formatEth } from './text-format.js';

export type LogLevel = 'info' | 'warn' | 'error';

/** One line of the dashboard's log pane. */
export interface LogLine {
  /** Local time it was logged, ms. */
  readonly at: number;
  readonly level: LogLevel;
  readonly text: string;
}

/** What the log compares an event with, so that it says what changed rather than repeating the state. */
export interface LogContext {
  readonly tips?: StreamTips;
  readonly sync?: StreamSyncProgress;
  readonly snapshotUpload?: StreamSnapshotUpload;
  readonly l1?: StreamL1;
}

/**
 * The log line of an event, or undefined for events the other panels show well enough (the pool's totals, tips
 * that only follow a new block, follower progress without a change of state).
 */
export function describeEvent(event: NodeStreamEvent, before: LogContext, at: number): LogLine | undefined {
  const line = (text: string, level: LogLevel = 'info'): LogLine => ({ at, level, text });
  switch (event.type) {
    case 'snapshot':
      return line(
        `connected: l2node ${event.node.nodeVersion} (${event.node.mode}) at block ${event.tips.proposed.number}, ` +
          `${event.production.state}${event.production.pausedBy.length ? ` by ${event.production.pausedBy.join(', ')}` : ''}`,
      );
    case 'block': {
      const b = event.block;
      const took = b.durationMs === undefined ? '' : `, applied in ${b.durationMs} ms`;
      return line(`block ${b.number} ${abbreviateHex(b.hash)}: ${b.txCount} txs, ${formatCount(b.mana)} mana${took}`);
    }
    case 'tips': {
      const moved: string[] = [];
      const was = before.tips;
      // Checkpointed moves every slot (the blocks say as much); proofs and finality are worth a line.
      for (const name of ['proven', 'finalized'] as const) {
        const now = event.tips[name];
        if (was && now.checkpoint.number !== was[name].checkpoint.number) {
          moved.push(`${name} checkpoint ${now.checkpoint.number} (block ${now.block.number})`);
        }
      }
      return moved.length > 0 ? line(`tips: ${moved.join(', ')}`) : undefined;
    }
    case 'unwound':
      return line(`unwound to block ${event.targetBlockNumber}: ${event.removed} blocks removed`, 'warn');
    case 'pool':
      return undefined;
    case 'sync': {
      const s = event.sync;
      const was = before.sync;
      if (s.problem && s.problem.message !== was?.problem?.message) {
        return line(`sync ${s.state}: ${s.problem.subject}: ${s.problem.message}`, 'error');
      }
      if (was && s.state === was.state) return undefined;
      return line(
        `sync from ${s.upstream}: ${s.state} at block ${s.blockNumber}`,
        s.state === 'synced' ? 'info' : 'warn',
      );
    }
    case 'paused': {
      const by = event.production.pausedBy;
      return line(
        `sync paused${by.length ? ` by ${by.join(', ')}` : ''} at block ${event.production.blockNumber}`,
        'warn',
      );
    }
    case 'resumed':
      return line(`sync resumed at block ${event.production.blockNumber}`);
    case 'config':
      return line(
        `config changed: ${Object.entries(event.changed)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(', ')}`,
      );
    case 'snapshotUpload': {
      const s = event.snapshotUpload;
      if (s.running) {
        if (s.phase === before.snapshotUpload?.phase && before.snapshotUpload?.running) return undefined;
        return line(`snapshot upload to ${s.location}: ${s.phase}`);
      }
      const last = s.last;
      if (!last || last.finishedAt === before.snapshotUpload?.last?.finishedAt) return undefined;
      return last.ok
        ? line(`snapshot uploaded to ${last.location}`)
        : line(`snapshot upload to ${last.location} failed: ${last.error}`, 'error');
    }
    case 'rollback':
      return line(
        `rolled back to block ${event.targetBlockNumber}: ${event.removedBlocks} blocks removed, ` +
          `${event.returnedTxs ?? 0} of their ${event.removedTxs ?? 0} txs back in the pool` +
          (event.rederived ? ', world state and pool re-derived' : ''),
        'warn',
      );
    case 'l1':
      return describeL1Change(event.l1, before.l1, line);
    case 'validatorSlot': {
      const r = event.result;
      const missed = r.status === 'checkpoint-missed' || r.status === 'blocks-missed';
      return line(
        `slot ${r.slot}: proposer ${abbreviateHex(r.proposer, 4)} ${r.status}, ${r.attestationsSent} attestations, ${r.attestationsMissed} missed`,
        missed || r.attestationsMissed > 0 ? 'warn' : 'info',
      );
    }
  }
}

/**
 * What changed on the L1, in one line: it went down or came back, the publisher ran low or was funded, a new
 * proposal or proof (a failed one as an error). A poll that only read a new block says nothing.
 */
function describeL1Change(
  now: StreamL1,
  was: StreamL1 | undefined,
  line: (text: string, level?: LogLevel) => LogLine,
): LogLine | undefined {
  const parts: { text: string; level: LogLevel }[] = [];
  if (was && now.reachable !== was.reachable) {
    parts.push(
      now.reachable
        ? { text: `L1 reachable again at block ${formatCount(now.blockNumber)}`, level: 'info' }
        : { text: `L1 unreachable: ${now.lastError ?? 'no answer'} (the node keeps retrying)`, level: 'error' },
    );
  }
  const balance = now.publisher.balanceWei;
  if (balance !== undefined && now.publisher.lowBalance && !was?.publisher.lowBalance) {
    parts.push({ text: `L1 publisher low on ETH: ${formatEth(balance)}, under one proposal's cost`, level: 'warn' });
  } else if (balance !== undefined && !now.publisher.lowBalance && was?.publisher.lowBalance) {
    parts.push({ text: `L1 publisher funded again: ${formatEth(balance)}`, level: 'info' });
  }
  for (const [tx, before] of [
    [now.lastProposal, was?.lastProposal],
    [now.lastProof, was?.lastProof],
  ] as const) {
    if (tx && !sameTx(tx, before)) {
      const kind = tx.kind === 'propose' ? 'proposal' : 'proof';
      parts.push({ text: `L1 ${kind}: ${describeL1Tx(tx, (h) => abbreviateHex(h))}`, level: tx.ok ? 'info' : 'error' });
    }
  }
  if (parts.length === 0) return undefined;
  const level = (['error', 'warn', 'info'] as const).find((l) => parts.some((p) => p.level === l)) as LogLevel;
  return line(parts.map((p) => p.text).join('; '), level);
}

function sameTx(a: StreamL1Tx, b: StreamL1Tx | null | undefined): boolean {
  return b !== null && b !== undefined && a.at === b.at && a.txHash === b.txHash;
}
