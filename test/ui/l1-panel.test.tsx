import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { L1Panel } from '../../src/ui/l1-panel.js';
import { plain } from '../helpers/ink-frames.js';
import { hash, proposalTx, sampleL1 } from '../helpers/stream-fixtures.js';

const frame = (l1: Parameters<typeof L1Panel>[0]['l1']) => plain(render(<L1Panel l1={l1} />).lastFrame());

describe('L1Panel', () => {
  it('shows the chain, its block, the rollup, the publisher balance and that nothing was sent yet', () => {
    const text = frame(sampleL1());
    expect(text).toContain('chain 31337 · block 1,234 · ● reachable');
    expect(text).toContain('rollup 0x5fbdb2…180aa3');
    expect(text).toContain('publisher 0xf39fd6…b92266 · 9999.9861 ETH');
    expect(text).toContain('proposal: --');
    expect(text).toContain('proof: --');
    expect(text).not.toMatch(/LOW|undefined|NaN/);
  });

  it('shows the last proposal and proof with their L1 blocks and tx hashes', () => {
    const proof = {
      ...proposalTx(0, 360),
      kind: 'proof' as const,
      epoch: 3,
      fromCheckpoint: 9,
      toCheckpoint: 12,
      txHash: hash(0xcd03),
      checkpoint: undefined,
    };
    const text = frame(sampleL1({ lastProposal: proposalTx(12, 345), lastProof: proof }));
    expect(text).toContain('proposal: checkpoint 12 in L1 block 345 (0x000000…00ab0c)');
    expect(text).toContain('proof: epoch 3 (checkpoints 9 to 12) in L1 block 360 (0x000000…00cd03)');
  });

  it('says why the L1 does not answer, a publisher low on ETH, and a failed proposal with its reason', () => {
    const failed = proposalTx(13, 0, {
      ok: false,
      l1BlockNumber: undefined,
      error: 'execution reverted: Rollup__InvalidArchive',
    });
    const text = frame(
      sampleL1({
        reachable: false,
        lastError: 'HTTP request failed',
        publisher: {
          address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
          balanceWei: '1000000000000000',
          lowBalance: true,
        },
        lastProposal: failed,
      }),
    );
    expect(text).toContain('✗ unreachable: HTTP request failed');
    expect(text).toContain('0.001 ETH LOW');
    expect(text).toContain(
      'proposal: checkpoint 13 FAILED (0x000000…00ab0d): execution reverted: Rollup__InvalidArchive',
    );
  });
});
