#!/usr/bin/env node
// Writes docs/rpc.md from the method table of the built code: run `npm run build` first.
// test/rpc/rpc-docs.test.ts fails when the committed file differs from what this prints.
import { writeFileSync } from 'node:fs';
import { renderRpcDocs } from '../dist/rpc/docs/render-rpc-docs.js';

const target = new URL('../docs/rpc.md', import.meta.url);
writeFileSync(target, renderRpcDocs());
process.stdout.write(`wrote ${target.pathname}\n`);
