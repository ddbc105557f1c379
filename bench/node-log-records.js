// The JSON log records (`--log-format json`, one object a line) a spawned `l2node start` writes to its stdout, one
// call per record; other lines (a banner) are skipped. Benchmarks read the node's URLs and milestones from them.

/** Calls `onRecord` with each JSON record of `stream`, a line at a time. @param {import('node:stream').Readable} stream @param {(record: Record<string, any>) => void} onRecord */
export function onLogRecords(stream, onRecord) {
  let buffer = '';
  stream.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) if (line.startsWith('{')) onRecord(JSON.parse(line));
  });
}
