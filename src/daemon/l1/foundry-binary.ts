import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A Foundry tool the node runs as a child process. */
export type FoundryTool = 'anvil' | 'forge';

/** Foundry's npm packages name their platforms this way (`@foundry-rs/anvil-linux-amd64`). */
const ARCHES: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' };

/** A Foundry binary the node cannot run here. */
export class FoundryBinaryError extends Error {
  override name = 'FoundryBinaryError';
}

/**
 * Where the Foundry binary shipped by npm (`@foundry-rs/<tool>-<platform>-<arch>`, 1.7.1, an optional
 * dependency) is. Throws a clear error on a platform npm did not install it for.
 */
export function foundryBinary(tool: FoundryTool): string {
  const arch = ARCHES[process.arch];
  const pkg = `@foundry-rs/${tool}-${process.platform}-${arch ?? process.arch}`;
  const exe = process.platform === 'win32' ? `${tool}.exe` : tool;
  let path: string | undefined;
  try {
    const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
    path = join(dirname(manifest), 'bin', exe);
  } catch {
    path = undefined;
  }
  if (!path || !existsSync(path)) {
    throw new FoundryBinaryError(
      `${tool} is not installed for ${process.platform}-${process.arch} (npm package ${pkg}); ` +
        `run an L1 yourself and pass --l1-rpc-urls instead of --l1 anvil`,
    );
  }
  return path;
}
