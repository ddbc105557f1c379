#!/usr/bin/env node
// Writes docs/configuration.md from the settings table of the built code: run `npm run build` first.
// test/unit/daemon/config/settings-docs.test.ts fails when the committed file differs from what this prints.
import { writeFileSync } from 'node:fs';
import { renderSettingsDocs } from '../dist/daemon/config/render-settings-docs.js';

const target = new URL('../docs/configuration.md', import.meta.url);
writeFileSync(target, renderSettingsDocs());
process.stdout.write(`wrote ${target.pathname}\n`);
