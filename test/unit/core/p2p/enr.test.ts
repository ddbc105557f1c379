import { SignableENR } from '@chainsafe/enr';
import { ENR as AztecENR } from '@nethermindeth/enr';
import { describe, expect, it } from 'vitest';
import {
  AZTEC_ENR_CLIENT_VERSION_KEY,
  AZTEC_ENR_KEY,
  aztecEnrValue,
  compressedVersionsFromEnrValue,
} from '../../../../src/core/p2p/enr-keys.js';
import { importAztecP2p } from '../../../helpers/aztec-p2p-oracle/aztec-p2p-modules.js';

const VERSIONS = '00-31337-5fbdb231-1-00b5f2a1-00a1b2c3';

/**
 * The ENR the daemon builds (@chainsafe/enr, the maintained line) decodes with the ENR package 4.1.2 uses
 * (@nethermindeth/enr) and carries what a 4.1.2 node reads from it.
 */
describe('ENR', () => {
  it('built with @chainsafe/enr decodes with 4.1.2 @nethermindeth/enr, with the aztec and ver keys', async () => {
    const types = await importAztecP2p<{ AZTEC_ENR_KEY: string; AZTEC_ENR_CLIENT_VERSION_KEY: string }>(
      'types/index.js',
    );
    expect(AZTEC_ENR_KEY).toBe(types.AZTEC_ENR_KEY);
    expect(AZTEC_ENR_CLIENT_VERSION_KEY).toBe(types.AZTEC_ENR_CLIENT_VERSION_KEY);

    const privateKey = Buffer.alloc(32, 0x42);
    const enr = SignableENR.createV4(privateKey);
    enr.ip = '127.0.0.1';
    enr.tcp = 40400;
    enr.udp = 40401;
    enr.set(AZTEC_ENR_KEY, aztecEnrValue(VERSIONS));
    enr.set(AZTEC_ENR_CLIENT_VERSION_KEY, new TextEncoder().encode('l2node/0.1.0'));
    const text = enr.encodeTxt();
    expect(text.startsWith('enr:')).toBe(true);

    // decodeTxt checks the record's signature and throws when it does not verify.
    const decoded = AztecENR.decodeTxt(text);
    expect(Buffer.from(decoded.kvs.get(AZTEC_ENR_KEY) as Uint8Array).toString()).toBe(VERSIONS);
    expect(compressedVersionsFromEnrValue(decoded.kvs.get(AZTEC_ENR_KEY) as Uint8Array)).toBe(VERSIONS);
    expect(Buffer.from(decoded.kvs.get(AZTEC_ENR_CLIENT_VERSION_KEY) as Uint8Array).toString()).toBe('l2node/0.1.0');
    expect(decoded.getLocationMultiaddr('tcp')?.toString()).toBe('/ip4/127.0.0.1/tcp/40400');
    expect(decoded.getLocationMultiaddr('udp')?.toString()).toBe('/ip4/127.0.0.1/udp/40401');
    expect((await decoded.peerId()).toString()).toBe(enr.peerId.toString());
    expect(decoded.nodeId).toBe(enr.nodeId);
  });

  it('a tampered record fails 4.1.2 signature verification', () => {
    const enr = SignableENR.createV4(Buffer.alloc(32, 0x43));
    enr.set(AZTEC_ENR_KEY, aztecEnrValue(VERSIONS));
    const good = AztecENR.decodeTxt(enr.encodeTxt());
    const values = good.encodeToValues();
    const tampered = values.map((v, i) =>
      i > 0 && Buffer.from(v as Uint8Array).toString() === VERSIONS ? aztecEnrValue(`${VERSIONS}x`) : v,
    ) as Uint8Array[];
    expect(tampered).not.toEqual(values);
    expect(() => AztecENR.decodeFromValues(tampered)).toThrow(/verify enr signature/);
  });
});
