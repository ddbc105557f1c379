/** "2 txs (0x122e…c724, 0x9a0b…11f3)": a block's txs in its one log line, the first few by short hash. */
export function txList(hashes: readonly string[]): string {
  if (hashes.length === 0) return '0 txs';
  const short = hashes.slice(0, 4).map((h) => `${h.slice(0, 6)}…${h.slice(-4)}`);
  const more = hashes.length > 4 ? `, +${hashes.length - 4} more` : '';
  return `${hashes.length} tx${hashes.length === 1 ? '' : 's'} (${short.join(', ')}${more})`;
}
