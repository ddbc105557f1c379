import pino from 'pino';

import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import type { NodeConfig } from '../../../../src/daemon/config/settings.js';
import { ManualClock } from '../../../../src/daemon/lifecycle/manual-clock.js';
import type { ValidatorSlotResult } from '../../../../src/daemon/node-events.js';
import { openNodeDatabase, type SqliteDatabase } from '../../../../src/daemon/store/node-database.js';
import { ValidatorService } from '../../../../src/daemon/validators/validator-service.js';
import { type DevChainService, ListTxSource, openDevChain } from '../chain/dev-chain-fixture.js';

export interface CommitteeChain {
  readonly clock: ManualClock;
  readonly db: SqliteDatabase;
  readonly chain: DevChainService;
  readonly validators: ValidatorService;
  readonly config: NodeConfig;
  /** Moves the clock slot by slot (block interval by block interval), letting signatures and the sentinel finish. */
  advanceSlots(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A dev chain with a validator committee on an in-memory database and a manual clock: 4-second slots of one
 * block, empty blocks built (min txs 0), 2-slot epochs proven and finalized as soon as they end, 1-epoch
 * slashing rounds. The validator service starts before the sequencer, as in the node.
 */
export async function startCommitteeChain(
  flags: Record<string, string>,
  hooks: { onSlot?: (result: ValidatorSlotResult) => void } = {},
): Promise<CommitteeChain> {
  const { config } = resolveConfig(
    {
      // The committee works slot by slot: the interval sequencer, not the instant default.
      'sequencer-mode': 'interval',
      'slot-duration': '4',
      'blocks-per-slot': '1',
      'epoch-duration': '2',
      'proof-delay': '0',
      'finality-delay': '0',
      'min-txs-per-block': '0',
      'slashing-round-size-in-epochs': '1',
      ...flags,
    },
    {},
  );
  const clock = new ManualClock();
  const db = openNodeDatabase(null);
  const log = pino({ level: 'silent' });
  const source = new ListTxSource();
  const chain = openDevChain(db, config, clock, source);
  const validators = new ValidatorService({
    db,
    config,
    chainStore: chain.chain.store,
    slots: chain.slots,
    sequencer: chain.sequencer,
    clock,
    log,
    onSlot: hooks.onSlot,
  });
  await validators.start();
  await chain.sequencer.start();
  await drain();
  return {
    clock,
    db,
    chain,
    validators,
    config,
    async advanceSlots(n) {
      const steps = n * chain.slots.blocksPerSlotAt(chain.slots.currentSlot());
      for (let i = 0; i < steps; i++) {
        // Just past the boundary first: the validators' per-slot work finishes early in the slot, as in real time.
        clock.advance(2);
        await drain();
        clock.advance(chain.slots.blockIntervalMs - 2);
        await drain();
      }
    },
    async close() {
      await validators.stop();
      await chain.sequencer.stop();
      db.close();
    },
  };
}

/** Lets promise chains started by the clock (signing, signature recovery) run to their end. */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}
