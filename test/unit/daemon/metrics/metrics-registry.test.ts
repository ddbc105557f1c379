import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../../../src/daemon/metrics/metrics-registry.js';

describe('MetricsRegistry (Prometheus text format 0.0.4)', () => {
  it('renders counters, gauges read at scrape time and cumulative histograms, labels escaped', () => {
    const r = new MetricsRegistry();
    let height = 7;
    r.gauge('l2node_block_height', 'Latest block.', () => height);
    r.gauge('l2node_tip', 'Tips.', () => [
      [{ tip: 'proposed' }, 7],
      [{ tip: 'finalized' }, 3],
    ]);
    r.gauge('l2node_absent', 'Not known yet.', () => undefined);
    const calls = r.counter('l2node_rpc_requests_total', 'Calls.');
    calls({ method: 'node_getBlock', outcome: 'ok' });
    calls({ method: 'node_getBlock', outcome: 'ok' });
    calls({ method: 'weird"\\\nname', outcome: 'error' });
    const seconds = r.histogram('l2node_apply_seconds', 'Apply time.', [0.01, 0.1]);
    seconds(0.005);
    seconds(0.05);
    seconds(2);
    height = 8;
    expect(r.render()).toBe(
      [
        '# HELP l2node_block_height Latest block.',
        '# TYPE l2node_block_height gauge',
        'l2node_block_height 8',
        '# HELP l2node_tip Tips.',
        '# TYPE l2node_tip gauge',
        'l2node_tip{tip="proposed"} 7',
        'l2node_tip{tip="finalized"} 3',
        '# HELP l2node_rpc_requests_total Calls.',
        '# TYPE l2node_rpc_requests_total counter',
        'l2node_rpc_requests_total{method="node_getBlock",outcome="ok"} 2',
        'l2node_rpc_requests_total{method="weird\\"\\\\\\nname",outcome="error"} 1',
        '# HELP l2node_apply_seconds Apply time.',
        '# TYPE l2node_apply_seconds histogram',
        'l2node_apply_seconds_bucket{le="0.01"} 1',
        'l2node_apply_seconds_bucket{le="0.1"} 2',
        'l2node_apply_seconds_bucket{le="+Inf"} 3',
        'l2node_apply_seconds_sum 2.055',
        'l2node_apply_seconds_count 3',
        '',
      ].join('\n'),
    );
  });

  it('refuses a bad or duplicate metric name', () => {
    const r = new MetricsRegistry();
    r.counter('a_total', 'A.');
    expect(() => r.counter('a_total', 'Again.')).toThrow(/defined twice/);
    expect(() => r.gauge('1bad', 'Bad.', () => 1)).toThrow(/invalid metric name/);
  });
});
