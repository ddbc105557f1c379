import { pino } from 'pino';
import { type PublicClient, TimeoutError } from 'viem';
import { describe, expect, it } from 'vitest';
import { attachL1 } from '../../../../src/daemon/l1/attach-l1.js';
import type { L1DeploymentRepository } from '../../../../src/daemon/l1/l1-deployment-repository.js';

/** attachL1 up to its chain id check: an L1 that answers `answers` in turn (errors are thrown). */
function attach(answers: (number | Error)[], warnings: string[]) {
  let calls = 0;
  const client = {
    getChainId: async () => {
      const a = answers[Math.min(calls++, answers.length - 1)];
      if (a instanceof Error) throw a;
      return a;
    },
  } as unknown as PublicClient;
  const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  const run = attachL1({
    client,
    rpcUrl: 'http://127.0.0.1:1',
    chainId: 31337,
    registryAddress: undefined,
    deploy: () => {
      throw new Error('not reached');
    },
    deployments: {} as L1DeploymentRepository,
    log,
  });
  return { run, calls: () => calls };
}

const timeout = () => new TimeoutError({ body: { method: 'eth_chainId' }, url: 'http://127.0.0.1:1' });

describe('attachL1: the L1’s first answer', () => {
  it('waits for an L1 whose first requests time out (one log line), then goes on with its answer', async () => {
    const warnings: string[] = [];
    const a = attach([timeout(), timeout(), 5], warnings);
    // It went on past the timeouts to the chain id check, which this L1 (chain 5) fails.
    await expect(a.run).rejects.toThrow(/has chain id 5, but --l1-chain-id is 31337/);
    expect(a.calls()).toBe(3);
    expect(warnings).toEqual(['the L1 at http://127.0.0.1:1 is slow to answer; waiting for it (up to 120 s)']);
  });

  it('fails at once on any other error', async () => {
    const warnings: string[] = [];
    const a = attach([new Error('connect ECONNREFUSED 127.0.0.1:1'), 31337], warnings);
    await expect(a.run).rejects.toThrow(/ECONNREFUSED/);
    expect(a.calls()).toBe(1);
    expect(warnings).toEqual([]);
  });
});
