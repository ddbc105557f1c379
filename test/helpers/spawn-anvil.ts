import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { foundryBinary } from '../../src/daemon/l1/foundry-binary.js';

/** An anvil a test runs itself (an L1 of the user's own), on loopback and a free port. */
export interface TestAnvil {
  readonly process: ChildProcess;
  readonly url: string;
}

/**
 * Starts anvil with `args` (e.g. `--block-time 1`; automine without) and resolves once it listens: on `port`,
 * or a free one.
 */
export async function spawnAnvil(args: readonly string[] = [], port = 0): Promise<TestAnvil> {
  const child = spawn(foundryBinary('anvil'), ['--host', '127.0.0.1', '--port', String(port), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('anvil did not listen within 30 s')), 30_000);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const listening = /Listening on (\S+):(\d+)/.exec(line);
      if (listening) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${listening[2]}`);
      }
    });
  });
  return { process: child, url };
}
