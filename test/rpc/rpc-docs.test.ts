import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRpcDocs } from '../../src/rpc/docs/render-rpc-docs.js';

describe('docs/rpc.md', () => {
  it('is what the method table renders (else: npm run build && node scripts/generate-rpc-docs.js)', () => {
    const committed = readFileSync(new URL('../../docs/rpc.md', import.meta.url), 'utf8');
    expect(
      committed === renderRpcDocs(),
      'docs/rpc.md is stale: run `npm run build && node scripts/generate-rpc-docs.js`',
    ).toBe(true);
  });

  it('lists every method of the table', () => {
    const docs = renderRpcDocs();
    for (const name of ['node_getBlockNumber', 'nodeAdmin_reloadKeystore', 'node_getLogsByTags']) {
      expect(docs).toContain(`### ${name}`);
    }
  });
});
