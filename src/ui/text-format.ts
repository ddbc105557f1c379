/**
 * How the dashboard's panels write figures: durations, counts, rates, hashes, bars and sparklines. A figure that
 * cannot be known yet is "--", never "unknown" (docs/aztec-facts.md section 8.2, reth #3569).
 */

export const UNKNOWN = '--';

/** 3723 s as "1h02m03s"; under a minute "42s". */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return UNKNOWN;
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${pad2(s % 60)}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${pad2(m % 60)}m${pad2(s % 60)}s`;
  return `${Math.floor(h / 24)}d${pad2(h % 24)}h`;
}

/** 1234567 as "1,234,567". */
export function formatCount(n: number | undefined): string {
  return n === undefined ? UNKNOWN : n.toLocaleString('en-US');
}

/** A per-second rate with one decimal ("2.5/s" style without the unit). */
export function formatRate(perSecond: number | undefined): string {
  if (perSecond === undefined || !Number.isFinite(perSecond)) return UNKNOWN;
  return perSecond >= 100 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

/**
 * Hex shortened to its ends, `0x25bebe…8a6a9f` (`head` digits after 0x, `tail` at the end), once it has at least
 * `minDigits` digits (by default whenever that makes it shorter); anything else (short, not hex) as it is. The
 * dashboard and the CLI's human output (commands/_lib/human-format.ts) both shorten through it.
 */
export function abbreviateHex(value: string, head = 6, tail = head, minDigits = head + tail + 2): string {
  if (!/^0x[0-9a-fA-F]+$/.test(value) || value.length - 2 < minDigits) return value;
  return `${value.slice(0, 2 + head)}…${value.slice(-tail)}`;
}

/** Wei (a decimal string) as ETH with up to 4 decimals, rounded down: "9999.9876 ETH" (dashboard, `l2node status`). */
export function formatEth(wei: string): string {
  const value = BigInt(wei);
  const whole = value / 10n ** 18n;
  const fraction = ((value % 10n ** 18n) / 10n ** 14n).toString().padStart(4, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} ETH`;
}

/** Local wall-clock time of a ms timestamp, "HH:MM:SS". */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** A bar of `width` cells filled to `percent` (0 to 100). */
export function progressBar(percent: number, width: number): string {
  const w = Math.max(1, width);
  const filled = Math.round((Math.min(100, Math.max(0, percent)) / 100) * w);
  return '█'.repeat(filled) + '░'.repeat(w - filled);
}

const SPARK = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** One cell per value, scaled to the largest; zero is the lowest bar so an idle series still shows. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((v) => {
      if (max <= 0 || v <= 0) return SPARK[0];
      return SPARK[Math.max(1, Math.min(7, Math.round((v / max) * 7)))];
    })
    .join('');
}

/** Text cut (with an ellipsis) or padded to exactly `width` columns. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length > width) return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
  return text.padEnd(width);
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
