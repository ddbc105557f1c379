import type { SqliteDatabase } from '../store/node-database.js';
import type { DeployedL1ContractAddresses, L1Deployment } from './l1-deployment.js';

interface Row {
  chain_id: number;
  registry_address: string;
  rollup_address: string;
  rollup_version: number;
  l1_block_at_genesis: number;
  genesis_time: number;
  slot_duration: number;
  epoch_duration: number;
  deployed_by_node: number;
  addresses: string;
}

/** l1_deployment: the one Aztec L1 deployment this node settles on. */
export class L1DeploymentRepository {
  constructor(private readonly db: SqliteDatabase) {}

  get(): L1Deployment | undefined {
    const row = this.db.prepare('SELECT * FROM l1_deployment WHERE id = 1').get() as Row | undefined;
    if (!row) return undefined;
    return {
      chainId: row.chain_id,
      addresses: JSON.parse(row.addresses) as DeployedL1ContractAddresses,
      rollupVersion: row.rollup_version,
      l1BlockAtGenesis: BigInt(row.l1_block_at_genesis),
      genesisTime: row.genesis_time,
      slotDuration: row.slot_duration,
      epochDuration: row.epoch_duration,
      deployedByNode: row.deployed_by_node === 1,
    };
  }

  /** Records the deployment; a node settles on one deployment for its whole life. */
  set(d: L1Deployment): void {
    this.db
      .prepare(
        `INSERT INTO l1_deployment (id, chain_id, registry_address, rollup_address, rollup_version,
           l1_block_at_genesis, genesis_time, slot_duration, epoch_duration, deployed_by_node, addresses)
         VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        d.chainId,
        d.addresses.registryAddress,
        d.addresses.rollupAddress,
        d.rollupVersion,
        Number(d.l1BlockAtGenesis),
        d.genesisTime,
        d.slotDuration,
        d.epochDuration,
        d.deployedByNode ? 1 : 0,
        JSON.stringify(d.addresses),
      );
  }
}
