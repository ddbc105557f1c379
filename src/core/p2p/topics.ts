import { MAX_TX_SIZE_BYTES } from '../constants.js';

/**
 * The gossip topics of 4.1.2 (TopicType), by the name that appears in the topic string. Their order is the
 * order 4.1.2 subscribes in.
 */
export const GOSSIP_TOPIC_TYPES = ['tx', 'block_proposal', 'checkpoint_proposal', 'checkpoint_attestation'] as const;

export type GossipTopicType = (typeof GOSSIP_TOPIC_TYPES)[number];

/** `/aztec/<type>/<compressed component versions>`. */
export function topicString(type: GossipTopicType, compressedVersions: string): string {
  return `/aztec/${type}/${compressedVersions}`;
}

/**
 * The topic type of a topic string, or undefined when it is not an Aztec topic. Like 4.1.2 it looks at the type
 * only; the version part is checked where the subscription is made (a node only subscribes to its own version).
 */
export function topicTypeOf(topic: string): GossipTopicType | undefined {
  const parts = topic.split('/');
  if (parts.length < 4 || parts[1] !== 'aztec') return undefined;
  return (GOSSIP_TOPIC_TYPES as readonly string[]).includes(parts[2] as string)
    ? (parts[2] as GossipTopicType)
    : undefined;
}

/**
 * Largest decompressed message accepted per topic, in bytes (4.1.2 SnappyTransform's DefaultMaxSizesKb): a tx
 * is MAX_TX_SIZE_KB (512 KiB); an attestation is about 1 KB, so 5 KiB; proposals may carry txs, so 10 MiB.
 */
export const GOSSIP_MAX_SIZE_BYTES: Readonly<Record<GossipTopicType, number>> = {
  tx: MAX_TX_SIZE_BYTES,
  block_proposal: 10 * 1024 * 1024,
  checkpoint_proposal: 10 * 1024 * 1024,
  checkpoint_attestation: 5 * 1024,
};

/** The limit for a topic that is not one of ours (4.1.2's default, 10 MiB). */
export const GOSSIP_DEFAULT_MAX_SIZE_BYTES = 10 * 1024 * 1024;

export function gossipMaxSizeBytes(topic: string): number {
  const type = topicTypeOf(topic);
  return type === undefined ? GOSSIP_DEFAULT_MAX_SIZE_BYTES : GOSSIP_MAX_SIZE_BYTES[type];
}
