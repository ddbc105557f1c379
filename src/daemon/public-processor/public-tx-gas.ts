import type { AvmGas } from '../../core/avm/index.js';
import { MAX_PROCESSABLE_L2_GAS } from '../../core/constants.js';
import { Gas } from '../../core/gas/gas.js';
import type { GasFees } from '../../core/gas/gas-fees.js';
import type { GasSettings } from '../../core/gas/gas-settings.js';
import { computeTransactionFee } from '../../core/gas/transaction-fee.js';
import type { GasUsed } from '../../core/tx/public-simulation-output.js';
import { PublicTxInvalidError } from './public-tx-invalid-error.js';

const add = (a: AvmGas, b: AvmGas): AvmGas => ({ l2Gas: a.l2Gas + b.l2Gas, daGas: a.daGas + b.daGas });
const sub = (a: AvmGas, b: AvmGas): AvmGas => ({ l2Gas: a.l2Gas - b.l2Gas, daGas: a.daGas - b.daGas });
const ZERO: AvmGas = { l2Gas: 0, daGas: 0 };

/**
 * A tx's gas accounting across its phases (4.1.2 PublicTxContext). Setup and app logic share one budget, the gas
 * limits minus what private used (which already includes the teardown limits); each enqueued call gets all of
 * what is left of it. Teardown has its own budget, the teardown limits.
 */
export class PublicTxGas {
  private readonly allocatedToPublic: AvmGas;
  private usedByPublic: AvmGas = ZERO;
  private usedByTeardown: AvmGas = ZERO;

  constructor(
    private readonly settings: GasSettings,
    private readonly usedByPrivate: Gas,
    private readonly hasTeardown: boolean,
  ) {
    const limits = settings.gasLimits;
    if (usedByPrivate.l2Gas > limits.l2Gas || usedByPrivate.daGas > limits.daGas) {
      throw new PublicTxInvalidError(
        `The tx's private gas (DA ${usedByPrivate.daGas}, L2 ${usedByPrivate.l2Gas}) exceeds its gas limits (DA ${limits.daGas}, L2 ${limits.l2Gas})`,
      );
    }
    const teardown = settings.teardownGasLimits;
    if (hasTeardown && (usedByPrivate.l2Gas < teardown.l2Gas || usedByPrivate.daGas < teardown.daGas)) {
      // The private kernel adds the teardown limits to the gas it reports; a tx without them is malformed.
      throw new PublicTxInvalidError(
        `The tx's private gas (DA ${usedByPrivate.daGas}, L2 ${usedByPrivate.l2Gas}) does not include its teardown gas limits (DA ${teardown.daGas}, L2 ${teardown.l2Gas})`,
      );
    }
    this.allocatedToPublic = sub(avm(limits), avm(usedByPrivate));
  }

  /** Gas an enqueued call of this phase may use. */
  leftFor(teardown: boolean): AvmGas {
    return teardown
      ? sub(avm(this.settings.teardownGasLimits), this.usedByTeardown)
      : sub(this.allocatedToPublic, this.usedByPublic);
  }

  consume(teardown: boolean, used: AvmGas): void {
    if (teardown) this.usedByTeardown = add(this.usedByTeardown, used);
    else this.usedByPublic = add(this.usedByPublic, used);
  }

  /** Private plus setup and app logic (teardown at its limit, inside private). */
  billed(): Gas {
    return gas(add(avm(this.usedByPrivate), this.usedByPublic));
  }

  /** The fee on the billed gas at the block's fees (what TRANSACTIONFEE answers in teardown, and the final fee). */
  transactionFee(blockFees: GasFees): bigint {
    return computeTransactionFee(blockFees, this.settings, this.billed()).value;
  }

  /** The figures after the last phase; refuses a tx that uses more than a tx can ever be given. */
  final(): GasUsed {
    const billed = avm(this.billed());
    const teardownLimit = this.hasTeardown ? avm(this.settings.teardownGasLimits) : ZERO;
    const total = add(sub(billed, teardownLimit), this.usedByTeardown);
    if (total.l2Gas > MAX_PROCESSABLE_L2_GAS) {
      throw new PublicTxInvalidError(
        `Transaction consumes ${total.l2Gas} L2 gas, which exceeds the maximum processable gas of ${MAX_PROCESSABLE_L2_GAS}`,
      );
    }
    return {
      totalGas: gas(total),
      teardownGas: gas(this.usedByTeardown),
      publicGas: gas(add(this.usedByPublic, this.usedByTeardown)),
      billedGas: gas(billed),
    };
  }
}

function avm(g: Gas): AvmGas {
  return { l2Gas: g.l2Gas, daGas: g.daGas };
}

function gas(g: AvmGas): Gas {
  return new Gas(g.daGas, g.l2Gas);
}
