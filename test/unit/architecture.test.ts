import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The architecture check of `npm run lint` (.dependency-cruiser.cjs): run on the repository it passes; run on a
 * copy of src/ with one deliberate violation per rule it fails, naming the rule and the import.
 */
const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

async function cruise(cwd: string): Promise<{ code: number; output: string }> {
  const bin = join(root, 'node_modules/.bin/depcruise');
  try {
    const { stdout } = await run(bin, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd });
    return { code: 0, output: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, output: e.stdout };
  }
}

describe('architecture check (dependency-cruiser in npm run lint)', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'l2node-arch-'));
    cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
    cpSync(join(root, '.dependency-cruiser.cjs'), join(copy, '.dependency-cruiser.cjs'));
    writeFileSync(
      join(copy, 'tsconfig.json'),
      JSON.stringify({ extends: join(root, 'tsconfig.json'), include: ['src'] }),
    );
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  });

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('passes on the repository', async () => {
    const { code, output } = await cruise(root);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('fails on a copy with a deliberate violation of each rule, type-only cycles included', async () => {
    const write = (path: string, text: string) => writeFileSync(join(copy, 'src', path), text);
    // core importing the daemon
    write('core/zz-uses-daemon.ts', "import type { L2Node } from '../daemon/node.js';\nexport type N = L2Node;\n");
    // rpc importing the daemon
    write(
      'rpc/zz-uses-daemon.ts',
      "import { PACKAGE_VERSION } from '../daemon/package-version.js';\nexport const V = PACKAGE_VERSION;\n",
    );
    // a query command loading the chain
    write('commands/query/zz-offline.ts', "export { ChainState } from '../../daemon/chain/chain-state.js';\n");
    // a cycle made only of type imports
    write('daemon/zz-a.ts', "import type { B } from './zz-b.js';\nexport interface A { b?: B }\n");
    write('daemon/zz-b.ts', "import type { A } from './zz-a.js';\nexport interface B { a?: A }\n");
    const { code, output } = await cruise(copy);
    expect(code).not.toBe(0);
    expect(output).toContain('core-imports-only-core: src/core/zz-uses-daemon.ts → src/daemon/node.ts');
    expect(output).toContain('rpc-imports-only-core: src/rpc/zz-uses-daemon.ts → src/daemon/package-version.ts');
    expect(output).toContain(
      'commands-import-the-daemon-only-from-start-and-db: src/commands/query/zz-offline.ts → src/daemon/chain/chain-state.ts',
    );
    expect(output).toMatch(/no-cycles: src\/daemon\/zz-a\.ts → \n?\s*src\/daemon\/zz-b\.ts/);
  });
});
