import { describe, expect, it } from 'vitest';
import { GenesisImage, type GenesisImageInputs, genesisImageKey } from '../../../../src/daemon/store/genesis-image.js';

/**
 * The genesis image's name (src/daemon/store/genesis-image.ts): an image is used only by the code and the genesis
 * settings that made it, so every input changes the name.
 */
const inputs: GenesisImageInputs = {
  genesisPublicData: [
    { slot: 1n, value: 10n },
    { slot: 2n, value: 20n },
  ],
  historyBlocks: 0,
  sponsoredFpc: true,
};

describe('genesis image key', () => {
  it('is the same for the same code and inputs', () => {
    expect(genesisImageKey('build-a', inputs)).toBe(genesisImageKey('build-a', { ...inputs }));
    expect(genesisImageKey('build-a', inputs)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs when the code or any genesis input differs', () => {
    const key = genesisImageKey('build-a', inputs);
    const others = [
      genesisImageKey('build-b', inputs),
      genesisImageKey('build-a', { ...inputs, historyBlocks: 64 }),
      genesisImageKey('build-a', { ...inputs, sponsoredFpc: false }),
      genesisImageKey('build-a', { ...inputs, genesisPublicData: [] }),
      genesisImageKey('build-a', { ...inputs, genesisPublicData: [{ slot: 1n, value: 10n }] }),
      genesisImageKey('build-a', {
        ...inputs,
        genesisPublicData: [
          { slot: 1n, value: 10n },
          { slot: 2n, value: 21n },
        ],
      }),
      // Slot and value are kept apart: (0x12, 0x3) is not (0x1, 0x23).
      genesisImageKey('build-a', { ...inputs, genesisPublicData: [{ slot: 0x12n, value: 0x3n }] }),
      genesisImageKey('build-a', { ...inputs, genesisPublicData: [{ slot: 0x1n, value: 0x23n }] }),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  it('code not run from the bundle has no identity, so no image', () => {
    expect(GenesisImage.of(inputs)).toBeUndefined();
  });
});
