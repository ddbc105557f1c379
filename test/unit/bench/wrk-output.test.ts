import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the benchmarks, without type declarations
import { parseWrk } from '../../../bench/rpc/load-generator.js';

/** bench/rpc reads wrk's text summary: its figures must come out in the units the report prints. */
const SUMMARY = `Running 1s test @ http://127.0.0.1:39071/
  1 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   252.40us  607.60us  10.68ms   94.80%
    Req/Sec    59.25k    18.70k   73.56k    80.00%
  Latency Distribution
     50%  105.00us
     75%  170.00us
     90%  359.00us
     99%    3.13ms
  58975 requests in 1.01s, 10.91MB read
Requests/sec:  58671.32
Transfer/sec:     10.85MB
`;

describe('bench/rpc wrk summary', () => {
  it('reads requests, req/s and the p50/p99 latencies in ms', () => {
    expect(parseWrk(SUMMARY)).toEqual({ requests: 58975, rps: 58671.32, p50: 0.105, p99: 3.13, failures: 0 });
  });

  it('counts non-2xx answers and socket errors as failures', () => {
    const failing = SUMMARY.replace(
      'Requests/sec',
      '  Socket errors: connect 0, read 2, write 0, timeout 1\n  Non-2xx or 3xx responses: 5\nRequests/sec',
    );
    expect(parseWrk(failing).failures).toBe(8);
  });

  it('refuses output it does not recognise instead of reporting zeros', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/unexpected wrk output/);
  });
});
