// The probe of bench/hostile, in a process of its own: node_getBlockNumber every 100 ms for PROBE_MS against
// PROBE_URL, each call's latency in ms printed as one JSON array when done. Run apart from the flooding
// clients so that their work (reading 24 streams of 9.6 MB, building txs) never delays the probe's own event
// loop: what it measures is the node's answer time.
// Usage (by run.js): PROBE_URL=http://127.0.0.1:port PROBE_MS=15000 node bench/hostile/probe.js
const url = process.env.PROBE_URL;
const ms = Number(process.env.PROBE_MS);
if (!url || !(ms > 0)) {
  process.stderr.write('probe.js needs PROBE_URL and PROBE_MS\n');
  process.exit(2);
}
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] });
const sleep = (t) => new Promise((r) => setTimeout(r, t));
async function call() {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const answer = await res.json();
  if (answer.result === undefined) throw new Error(`node_getBlockNumber failed: ${JSON.stringify(answer.error)}`);
}
// Not counted: the first call also loads this process's fetch (undici) and opens its connection, which on a
// loaded machine took longer than any answer of the node and showed up as the phase's max.
await call();
const samples = [];
const end = Date.now() + ms;
while (Date.now() < end) {
  const t = performance.now();
  await call();
  samples.push(performance.now() - t);
  await sleep(100);
}
process.stdout.write(JSON.stringify(samples));
