import { readFileSync } from 'node:fs';

/**
 * The node's package version (package.json), read once: node_getNodeVersion returns it and the public
 * listener sends it as x-aztec-packageVersion. The path holds from src/ (tests) and from dist/ (built).
 */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
