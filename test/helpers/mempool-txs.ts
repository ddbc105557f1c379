/**
 * Reshapes txs made by TxBuilder (which makes rollup-only txs) for the mempool tests: a tx with public calls,
 * a tx whose contract class log commitment or payload is tampered with. Each keeps everything else of the tx.
 */
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { Gas } from '../../src/core/gas/gas.js';
import { GasSettings } from '../../src/core/gas/gas-settings.js';
import { PartialPrivateTailPublicInputsForPublic } from '../../src/core/kernel/partial-private-tail-public-inputs-for-public.js';
import { PrivateKernelTailCircuitPublicInputs } from '../../src/core/kernel/private-kernel-tail-circuit-public-inputs.js';
import { PrivateToPublicAccumulatedData } from '../../src/core/kernel/private-to-public-accumulated-data.js';
import { PrivateToRollupAccumulatedData } from '../../src/core/kernel/private-to-rollup-accumulated-data.js';
import { PublicCallRequest } from '../../src/core/kernel/public-call-request.js';
import { ScopedLogHash } from '../../src/core/kernel/scoped-log-hash.js';
import type { ContractClassLogFields } from '../../src/core/logs/contract-class-log-fields.js';
import { HashedValues } from '../../src/core/tx/hashed-values.js';
import { Tx } from '../../src/core/tx/tx.js';
import { TxConstantData } from '../../src/core/tx/tx-constant-data.js';
import { TxContext } from '../../src/core/tx/tx-context.js';

export interface PublicCallSpec {
  readonly contract: bigint;
  readonly sender: bigint;
  /** Selector first, then the arguments. */
  readonly calldata: readonly Fr[];
  readonly isStatic?: boolean;
  /** Claim another calldata hash than the calldata's. */
  readonly wrongHash?: boolean;
  /** Leave the calldata out of the tx. */
  readonly omitCalldata?: boolean;
}

/**
 * The same tx with public calls: the rollup side effects become the non-revertible phase, `setup` calls go in
 * it, `app` calls in the revertible phase. Gas limits are raised to the public minimum unless `keepGas`.
 */
export function withPublicCalls(
  tx: Tx,
  calls: { setup?: readonly PublicCallSpec[]; app?: readonly PublicCallSpec[]; keepGas?: boolean },
): Tx {
  const d = tx.data;
  const end = d.forRollup as PrivateToRollupAccumulatedData;
  const calldata: HashedValues[] = [];
  const request = (c: PublicCallSpec): PublicCallRequest => {
    const hv = HashedValues.fromCalldata(c.calldata);
    if (!c.omitCalldata) calldata.push(hv);
    const hash = c.wrongHash ? hv.hash.value + 1n : hv.hash.value;
    return new PublicCallRequest(
      new AztecAddress(c.sender),
      new AztecAddress(c.contract),
      c.isStatic ?? false,
      new Fr(hash),
    );
  };
  const setup = (calls.setup ?? []).map(request);
  const app = (calls.app ?? []).map(request);
  const nonRevertible = PrivateToPublicAccumulatedData.fromSideEffects(
    {
      noteHashes: end.getNonEmptyNoteHashes(),
      nullifiers: end.getNonEmptyNullifiers(),
      l2ToL1Msgs: end.getNonEmptyL2ToL1Msgs(),
      privateLogs: end.getNonEmptyPrivateLogs(),
      contractClassLogsHashes: end.getNonEmptyContractClassLogsHashes(),
    },
    setup,
  );
  const revertible = PrivateToPublicAccumulatedData.fromSideEffects({}, app);
  const g = d.constants.txContext.gasSettings;
  const gas = calls.keepGas
    ? g
    : new GasSettings(
        new Gas(g.gasLimits.daGas, Math.max(g.gasLimits.l2Gas, 600_000)),
        g.teardownGasLimits,
        g.maxFeesPerGas,
        g.maxPriorityFeesPerGas,
      );
  const constants = new TxConstantData(
    d.constants.anchorBlockHeader,
    new TxContext(d.constants.txContext.chainId, d.constants.txContext.version, gas),
    d.constants.vkTreeRoot,
    d.constants.protocolContractsHash,
  );
  const data = new PrivateKernelTailCircuitPublicInputs(
    constants,
    d.gasUsed,
    d.feePayer,
    d.expirationTimestamp,
    undefined,
    new PartialPrivateTailPublicInputsForPublic(nonRevertible, revertible, PublicCallRequest.EMPTY),
  );
  return new Tx(data, tx.chonkProof, tx.contractClassLogFields, calldata);
}

/** The same tx with other contract class log payloads sent beside it (the commitment is unchanged). */
export function withClassLogFields(tx: Tx, fields: readonly ContractClassLogFields[]): Tx {
  return new Tx(tx.data, tx.chonkProof, fields, tx.publicFunctionCalldata);
}

/** The same rollup-only tx, its contract class log commitment claiming another emitted length. */
export function withClassLogLength(tx: Tx, length: number): Tx {
  const d = tx.data;
  const end = d.forRollup as PrivateToRollupAccumulatedData;
  const hashes = end
    .getNonEmptyContractClassLogsHashes()
    .map((h) => new ScopedLogHash(h.value, length, h.contractAddress));
  const newEnd = PrivateToRollupAccumulatedData.fromSideEffects({
    noteHashes: end.getNonEmptyNoteHashes(),
    nullifiers: end.getNonEmptyNullifiers(),
    l2ToL1Msgs: end.getNonEmptyL2ToL1Msgs(),
    privateLogs: end.getNonEmptyPrivateLogs(),
    contractClassLogsHashes: hashes,
  });
  const data = new PrivateKernelTailCircuitPublicInputs(
    d.constants,
    d.gasUsed,
    d.feePayer,
    d.expirationTimestamp,
    newEnd,
    undefined,
  );
  return new Tx(data, tx.chonkProof, tx.contractClassLogFields, tx.publicFunctionCalldata);
}
