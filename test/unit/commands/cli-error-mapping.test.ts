import { describe, expect, it } from 'vitest';
import { toCliError } from '../../../src/commands/_lib/base-command.js';
import { StoredDataDamagedError } from '../../../src/daemon/store/record-checksum.js';

describe('toCliError', () => {
  it('names damaged stored data as DATA_DAMAGED with the commands that find and fix it, not as a bug to report', () => {
    const e = toCliError(
      new StoredDataDamagedError('/data/n1/l2node.sqlite', 'tx effect 0 of block 3 (chain_tx)'),
      'x',
    );
    expect(e.code).toBe('DATA_DAMAGED');
    expect(e.message).toMatch(/^stored data is damaged: tx effect 0 of block 3/);
    expect(e.actions.join('\n')).toMatch(/l2node db check --full --data-directory \/data\/n1/);
    expect(e.actions.join('\n')).not.toMatch(/report it/);
  });

  it('keeps other unexpected errors internal, without their stack', () => {
    const e = toCliError(new TypeError('boom'), 'x');
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toBe('internal error: boom');
  });
});
