import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSettingsDocs } from '../../../../src/daemon/config/render-settings-docs.js';
import { SETTINGS } from '../../../../src/daemon/config/settings.js';

describe('docs/configuration.md', () => {
  it('is what the settings table renders (else: npm run build && node scripts/generate-config-docs.js)', () => {
    const committed = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    expect(committed === renderSettingsDocs(), 'docs/configuration.md is stale: run `npm run docs`').toBe(true);
  });
  it('lists every flag and env var of the table', () => {
    const docs = renderSettingsDocs();
    for (const s of Object.values(SETTINGS)) {
      expect(docs).toContain(`\`--${s.flag}\``);
      expect(docs).toContain(`\`${s.env}\``);
    }
  });
});
