// The HTTP load generators bench/rpc can drive: wrk (C, the method of docs/baselines.md section 1.1) when it is
// installed, else autocannon (JavaScript, always present). autocannon's own CPU becomes the limit near 60k
// req/s on these machines, which leaves the server idle part of the time and pulls every ratio towards 1:
// prefer wrk (`apt-get install wrk`).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** @typedef {{ requests: number, rps: number, p50: number, p99: number, failures: number }} LoadResult */

export function wrkAvailable() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk prints its version and exits 1.
    return err.status === 1;
  }
}

/**
 * POSTs `body` to `url` over `connections` keep-alive connections for `seconds`.
 * `pin` is a taskset CPU list for the load generator (wrk runs as its own process), or undefined.
 * @returns {Promise<LoadResult>}
 */
export function runLoad(tool, { url, body, connections, seconds, pin }) {
  return tool === 'wrk' ? runWrk(url, body, connections, seconds, pin) : runAutocannon(url, body, connections, seconds);
}

function runAutocannon(url, body, connections, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections,
        duration: seconds,
        pipelining: 1,
      },
      (err, r) =>
        err
          ? reject(err)
          : resolve({
              requests: r.requests.total,
              rps: r.requests.average,
              p50: r.latency.p50,
              p99: r.latency.p99,
              failures: r.non2xx + r.errors,
            }),
    );
  });
}

async function runWrk(url, body, connections, seconds, pin) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rpc-'));
  try {
    const script = join(dir, 'post.lua');
    writeFileSync(
      script,
      `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${luaString(body)}\n`,
    );
    const argv = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url];
    const [cmd, args] = pin === undefined ? ['wrk', argv] : ['taskset', ['-c', pin, 'wrk', ...argv]];
    const out = await new Promise((resolve, reject) =>
      execFile(cmd, args, (err, stdout, stderr) =>
        err ? reject(new Error(`wrk failed: ${stderr || err.message}`)) : resolve(stdout),
      ),
    );
    return parseWrk(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function luaString(text) {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Reads wrk's summary: totals, Requests/sec, the 50% and 99% latencies (in ms), non-2xx and socket errors. */
export function parseWrk(out) {
  const match = (re) => {
    const m = out.match(re);
    if (!m) throw new Error(`unexpected wrk output (no ${re}):\n${out}`);
    return m;
  };
  const ms = (value, unit) => Number(value) * { us: 0.001, ms: 1, s: 1000 }[unit];
  const p50 = match(/^\s+50%\s+([\d.]+)(us|ms|s)\s*$/m);
  const p99 = match(/^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m);
  const non2xx = out.match(/Non-2xx or 3xx responses: (\d+)/);
  const socket = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requests: Number(match(/(\d+) requests in/)[1]),
    rps: Number(match(/Requests\/sec:\s+([\d.]+)/)[1]),
    p50: ms(p50[1], p50[2]),
    p99: ms(p99[1], p99[2]),
    failures: (non2xx ? Number(non2xx[1]) : 0) + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
  };
}
