import { describe, expect, it } from 'vitest';
import { formatLogLevelSpec, parseLogLevelSpec } from '../../../../src/daemon/logging/log-levels.js';

describe('log level spec', () => {
  it('reads a plain level', () => {
    expect(parseLogLevelSpec('debug')).toEqual({ level: 'debug', modules: {} });
  });
  it('reads per-module overrides', () => {
    expect(parseLogLevelSpec('info; debug: rpc,world-state; warn: sequencer')).toEqual({
      level: 'info',
      modules: { rpc: 'debug', 'world-state': 'debug', sequencer: 'warn' },
    });
  });
  it('accepts common aliases (trace stacks set one level for every client)', () => {
    expect(parseLogLevelSpec('WARNING').level).toBe('warn');
    expect(parseLogLevelSpec('verbose').level).toBe('debug');
    expect(parseLogLevelSpec('trace').level).toBe('trace');
  });
  it('rejects unknown levels and empty module lists with a clear message', () => {
    // Every value it accepts is listed, the aliases (verbose among them) too.
    expect(() => parseLogLevelSpec('loud')).toThrow(
      'unknown log level "loud" (use silent, fatal, error, warn, info, debug, trace; also accepted: warning (= warn), ' +
        'verbose (= debug), err (= error), crit (= fatal))',
    );
    expect(() => parseLogLevelSpec('info; debug:')).toThrow(/no module names/);
  });
  it('formats back to a spec that parses to the same value', () => {
    const spec = parseLogLevelSpec('info; debug: rpc,sync');
    expect(parseLogLevelSpec(formatLogLevelSpec(spec))).toEqual(spec);
  });
});
