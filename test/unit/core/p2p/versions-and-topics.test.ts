import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { EthAddress as StdEthAddress } from '@aztec/foundation/eth-address';
import { createTopicString, getTopicFromString, MAX_TX_SIZE_KB, TopicType } from '@aztec/stdlib/p2p';
import { checkCompressedComponentVersion, compressComponentVersions as stdCompress } from '@aztec/stdlib/versioning';
import { describe, expect, it } from 'vitest';
import { EthAddress } from '../../../../src/core/eth-address.js';
import {
  type ComponentVersions,
  compareComponentVersions,
  compressComponentVersions,
  describeVersionMismatch,
} from '../../../../src/core/p2p/component-versions.js';
import {
  GOSSIP_MAX_SIZE_BYTES,
  GOSSIP_TOPIC_TYPES,
  gossipMaxSizeBytes,
  topicString,
  topicTypeOf,
} from '../../../../src/core/p2p/topics.js';
import { importAztecP2p } from '../../../helpers/aztec-p2p-oracle/aztec-p2p-modules.js';

const versions: ComponentVersions = {
  l1ChainId: 31337,
  l1RollupAddress: EthAddress.fromString('0x5FbDB2315678afecb367f032d93F642f64180aa3'),
  rollupVersion: 3_882_176_211,
  protocolContractsHash: 0x0b5f2a1c9e3d4f00112233445566778899aabbccddeeff00112233445566778n,
  vkTreeRoot: 0x00a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8fn,
};

function std(v: ComponentVersions) {
  return {
    l1ChainId: v.l1ChainId,
    l1RollupAddress: StdEthAddress.fromString(v.l1RollupAddress.toString()),
    rollupVersion: v.rollupVersion,
    l2ProtocolContractsHash: new StdFr(v.protocolContractsHash).toString(),
    l2CircuitsVkTreeRoot: new StdFr(v.vkTreeRoot).toString(),
  };
}

describe('compressComponentVersions', () => {
  it('writes the string 4.1.2 writes, leading zero digits kept', () => {
    const ours = compressComponentVersions(versions);
    expect(ours).toBe(stdCompress(std(versions)));
    expect(ours).toBe('00-31337-5fbdb231-3882176211-00b5f2a1-00a1b2c3');
  });

  it('names the component that differs, the one 4.1.2 rejects', () => {
    const ours = compressComponentVersions(versions);
    const variants: [Partial<ComponentVersions>, string, RegExp][] = [
      [{ l1ChainId: 1 }, 'L1 chain id', /L1 chain ID/],
      [{ l1RollupAddress: EthAddress.fromString(`0x${'ab'.repeat(20)}`) }, 'L1 rollup address', /L1 address/],
      [{ rollupVersion: 7 }, 'rollup version', /L2 chain version/],
      [{ protocolContractsHash: 5n << 240n }, 'protocol contracts hash', /protocol contracts/],
      [{ vkTreeRoot: 9n << 240n }, 'VK tree root', /circuits vk tree root/],
    ];
    for (const [change, component, stdMessage] of variants) {
      const theirs = compressComponentVersions({ ...versions, ...change });
      expect(() => checkCompressedComponentVersion(theirs, std(versions))).toThrow(stdMessage);
      const m = compareComponentVersions(ours, theirs);
      expect(m?.component).toBe(component);
      expect(describeVersionMismatch(m!)).toContain(`${component} differs`);
    }
    expect(compareComponentVersions(ours, ours)).toBeUndefined();
    expect(compareComponentVersions(ours, `01${ours.slice(2)}`)?.component).toBe('version format');
    expect(compareComponentVersions(ours, 'garbage')?.component).toBe('version format');
    expect(compareComponentVersions(ours, `${ours}-extra`)?.component).toBe('version format');
    expect(compareComponentVersions(ours, `00-${'9'.repeat(500)}`)?.received.length).toBe(80);
  });
});

describe('topics', () => {
  it('are the strings 4.1.2 subscribes to, and parse back to their type', () => {
    const v = compressComponentVersions(versions);
    expect(GOSSIP_TOPIC_TYPES).toEqual(Object.values(TopicType));
    for (const type of GOSSIP_TOPIC_TYPES) {
      const topic = topicString(type, v);
      expect(topic).toBe(createTopicString(type as TopicType, v));
      expect(topicTypeOf(topic)).toBe(getTopicFromString(topic));
    }
    for (const bad of ['/aztec/nope/x', '/eth2/tx/x', '/aztec/tx', 'tx', '']) {
      expect(topicTypeOf(bad)).toBe(getTopicFromString(bad));
    }
  });

  it('limit each topic as 4.1.2 SnappyTransform does', async () => {
    const { SnappyTransform } = await importAztecP2p<{ SnappyTransform: new () => unknown }>('services/encoding.js');
    const limits = (new SnappyTransform() as unknown as { maxSizesKb: Record<string, number> }).maxSizesKb;
    for (const type of GOSSIP_TOPIC_TYPES) {
      expect(GOSSIP_MAX_SIZE_BYTES[type]).toBe((limits[type] as number) * 1024);
      expect(gossipMaxSizeBytes(topicString(type, 'v'))).toBe(GOSSIP_MAX_SIZE_BYTES[type]);
    }
    expect(GOSSIP_MAX_SIZE_BYTES.tx).toBe(MAX_TX_SIZE_KB * 1024);
    expect(gossipMaxSizeBytes('/other/topic')).toBe(10 * 1024 * 1024);
  });
});
