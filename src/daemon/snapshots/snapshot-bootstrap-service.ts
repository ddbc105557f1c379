import type { NodeConfig } from '../config/settings.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { genesisPublicData } from '../sequencer/genesis-funding.js';
import { openNodeDatabase } from '../store/node-database.js';
import { WorldState } from '../world-state/world-state.js';
import { type BootstrapResult, bootstrapFromSnapshot } from './snapshot-bootstrap.js';

/**
 * `--snapshot-url` as a start-up step: runs before the database opens, so the node then opens the restored
 * database as if it had built it, and builds or syncs from its tip.
 */
export class SnapshotBootstrapService implements Service {
  readonly name = 'snapshot-bootstrap';
  result: BootstrapResult | undefined;

  constructor(
    private readonly config: NodeConfig,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const { config } = this;
    if (!config.snapshotUrl) return;
    this.result = await bootstrapFromSnapshot({
      snapshotUrl: config.snapshotUrl,
      dataDirectory: config.dataDirectory,
      l1ChainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      objectStores: {
        s3Endpoint: config.snapshotS3Endpoint,
        gcsEndpoint: config.snapshotGcsEndpoint,
        metadataCredentials: config.snapshotS3MetadataCredentials,
      },
      genesisBlockHash: () => genesisBlockHash(config),
      log: this.log,
    });
  }

  async stop(): Promise<void> {}
}

/** The genesis block hash this node's settings give (its prefunded accounts and sponsored FPC), computed on a scratch database. */
function genesisBlockHash(config: NodeConfig): bigint {
  const db = openNodeDatabase(null);
  try {
    return WorldState.open(db, { genesisPublicData: genesisPublicData(config) }).getGenesisBlockHash();
  } finally {
    db.close();
  }
}
