import type { AztecAddress } from '../aztec-address.js';
import type { BlockHeader } from '../block/block-header.js';
import {
  CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS,
  CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS,
  MAX_TX_LIFETIME,
} from '../constants.js';
import { computeContractAddressFromInstance } from '../contract/contract-address.js';
import { ContractClassPublishedEvent } from '../contract/contract-class-published-event.js';
import { ContractInstancePublishedEvent } from '../contract/contract-instance-published-event.js';
import type { PublicKeys } from '../contract/public-keys.js';
import type { EthAddress } from '../eth-address.js';
import { Fr } from '../fr.js';
import { Gas } from '../gas/gas.js';
import { GasFees } from '../gas/gas-fees.js';
import { GasSettings } from '../gas/gas-settings.js';
import { computeProtocolNullifier, siloNullifier } from '../hash/siloing.js';
import { PartialPrivateTailPublicInputsForPublic } from '../kernel/partial-private-tail-public-inputs-for-public.js';
import { PrivateKernelTailCircuitPublicInputs } from '../kernel/private-kernel-tail-circuit-public-inputs.js';
import { PrivateToPublicAccumulatedData } from '../kernel/private-to-public-accumulated-data.js';
import { PrivateToRollupAccumulatedData } from '../kernel/private-to-rollup-accumulated-data.js';
import { PublicCallRequest } from '../kernel/public-call-request.js';
import { ScopedL2ToL1Message } from '../kernel/scoped-l2-to-l1-message.js';
import { ScopedLogHash } from '../kernel/scoped-log-hash.js';
import type { ContractClassLogFields } from '../logs/contract-class-log-fields.js';
import type { PrivateLog } from '../logs/private-log.js';
import { ChonkProof } from './chonk-proof.js';
import { HashedValues } from './hashed-values.js';
import { computePrivateTxGasUsed } from './private-tx-gas.js';
import { Tx } from './tx.js';
import { TxConstantData } from './tx-constant-data.js';
import { TxContext } from './tx-context.js';

/** The chain a tx is built for: what the metadata validator compares, and the block it is anchored to. */
export interface TxChainContext {
  /** L1 chain id. */
  chainId: bigint;
  rollupVersion: bigint;
  vkTreeRoot: Fr;
  protocolContractsHash: Fr;
  /** A header whose hash is in the archive (usually the latest block's). */
  anchorBlockHeader: BlockHeader;
}

export interface L2ToL1MessageSpec {
  recipient: EthAddress;
  content: Fr;
  /** The L2 contract sending it. */
  sender: AztecAddress;
}

/** A contract class to publish through the class registry (address 3). */
export interface ContractClassSpec {
  artifactHash: Fr;
  privateFunctionsRoot: Fr;
  packedBytecode: Buffer;
}

/** A contract instance to publish through the instance registry (address 2); its address is derived. */
export interface ContractInstanceSpec {
  salt: Fr;
  contractClassId: Fr;
  initializationHash: Fr;
  publicKeys: PublicKeys;
  /** Zero for a universal deployment. */
  deployer: AztecAddress;
}

/** A public function call the tx enqueues; `calldata` starts with the function selector, as the AVM reads it. */
export interface PublicCallSpec {
  contractAddress: AztecAddress;
  msgSender: AztecAddress;
  calldata: readonly Fr[];
  isStaticCall?: boolean;
}

/** The public calls of a tx by phase: setup (non-revertible), app logic (revertible) and at most one teardown. */
export interface PublicCallsSpec {
  setup?: readonly PublicCallSpec[];
  appLogic?: readonly PublicCallSpec[];
  teardown?: PublicCallSpec;
}

export interface TxBuildOptions {
  /** Whose FeeJuice balance pays the fee. */
  feePayer: AztecAddress;
  /** Final note hash values as they enter the tree (already siloed and made unique). */
  noteHashes?: readonly Fr[];
  /** Siloed nullifiers after the first one. */
  nullifiers?: readonly Fr[];
  /**
   * The tx's first nullifier. By default the protocol nullifier of `txRequestHash`, which makes the tx
   * unique; with `null`, `nullifiers[0]` comes first instead.
   */
  firstNullifier?: Fr | null;
  /** Tx request hash behind the default first nullifier; random when absent. */
  txRequestHash?: Fr;
  privateLogs?: readonly PrivateLog[];
  l2ToL1Messages?: readonly L2ToL1MessageSpec[];
  /** Adds the class registry's nullifier (the class id) and its publication log. */
  publishContractClass?: ContractClassSpec;
  /** Adds, per instance, the instance registry's nullifier (the address) and its publication log. */
  publishContractInstances?: readonly ContractInstanceSpec[];
  /**
   * Public calls to enqueue: the tx is then one for the public processor, its private side effects all
   * non-revertible (the first nullifier must be), and its default private gas is the public tx's (overhead and,
   * with a teardown call, the teardown limits the kernel adds).
   */
  publicCalls?: PublicCallsSpec;
  /** Complete gas settings; otherwise built from the parts below with 4.1.2's default limits. */
  gasSettings?: GasSettings;
  /** Default: twice the anchor block's gas fees. */
  maxFeesPerGas?: GasFees;
  maxPriorityFeesPerGas?: GasFees;
  gasLimits?: Gas;
  teardownGasLimits?: Gas;
  /** Default: computed from the side effects (computePrivateTxGasUsed). */
  gasUsed?: Gas;
  /**
   * Default: anchor timestamp + MAX_TX_LIFETIME, the kernel's own cap; when the anchor is the genesis header
   * (timestamp 0), `now` + MAX_TX_LIFETIME instead, so that the tx is not born expired.
   */
  expirationTimestamp?: bigint;
  /** Current time in seconds, for the default expiration; defaults to the system clock. */
  now?: bigint;
}

/**
 * Builds transactions for a chain, rollup-only or with public calls enqueued, with a zero proof: what a node running
 * with fake proofs accepts. The defaults give a valid tx (unique first nullifier, gas limits within bounds,
 * metadata of the chain, unexpired); every explicit choice is honoured as given, so tests can also build
 * txs that a validator must reject (duplicate nullifiers, wrong chain, too little gas...).
 * Array sizes are checked against the kernel's fixed maxima.
 */
export class TxBuilder {
  constructor(readonly chain: TxChainContext) {}

  /** The same chain anchored to another block. */
  withAnchor(anchorBlockHeader: BlockHeader): TxBuilder {
    return new TxBuilder({ ...this.chain, anchorBlockHeader });
  }

  build(o: TxBuildOptions): Tx {
    const anchor = this.chain.anchorBlockHeader;
    const nullifiers: Fr[] = [];
    if (o.firstNullifier !== null) {
      nullifiers.push(o.firstNullifier ?? new Fr(computeProtocolNullifier((o.txRequestHash ?? Fr.random()).value)));
    }
    nullifiers.push(...(o.nullifiers ?? []));
    const privateLogs: PrivateLog[] = [...(o.privateLogs ?? [])];
    const classLogHashes: ScopedLogHash[] = [];
    const classLogFields: ContractClassLogFields[] = [];

    if (o.publishContractClass) {
      const c = o.publishContractClass;
      const event = ContractClassPublishedEvent.create(c.artifactHash, c.privateFunctionsRoot, c.packedBytecode);
      nullifiers.push(new Fr(siloNullifier(CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS, event.contractClassId.value)));
      const log = event.toLog();
      classLogFields.push(log.fields);
      classLogHashes.push(new ScopedLogHash(new Fr(log.fields.hash()), log.emittedLength, log.contractAddress));
    }
    for (const i of o.publishContractInstances ?? []) {
      const address = TxBuilder.instanceAddress(i);
      nullifiers.push(new Fr(siloNullifier(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, address.value)));
      const event = new ContractInstancePublishedEvent(
        address,
        1,
        i.salt,
        i.contractClassId,
        i.initializationHash,
        i.publicKeys,
        i.deployer,
      );
      privateLogs.push(event.toLog());
    }

    const noteHashes = [...(o.noteHashes ?? [])];
    const messages = (o.l2ToL1Messages ?? []).map((m) => new ScopedL2ToL1Message(m.recipient, m.content, m.sender));
    const sideEffects = {
      noteHashes,
      nullifiers,
      l2ToL1Msgs: messages,
      privateLogs,
      contractClassLogsHashes: classLogHashes,
    };
    const calls = o.publicCalls;

    const gasSettings =
      o.gasSettings ??
      new GasSettings(
        o.gasLimits ?? GasSettings.default(GasFees.ZERO).gasLimits,
        o.teardownGasLimits ?? GasSettings.default(GasFees.ZERO).teardownGasLimits,
        o.maxFeesPerGas ??
          new GasFees(anchor.globalVariables.gasFees.feePerDaGas * 2n, anchor.globalVariables.gasFees.feePerL2Gas * 2n),
        o.maxPriorityFeesPerGas ?? GasFees.ZERO,
      );
    const privateGas = computePrivateTxGasUsed({
      noteHashes: noteHashes.length,
      nullifiers: nullifiers.length,
      l2ToL1Msgs: messages.length,
      privateLogLengths: privateLogs.map((l) => l.emittedLength),
      contractClassLogLengths: classLogHashes.map((h) => h.length),
      hasPublicCalls: calls !== undefined,
    });
    const teardownLimits = calls?.teardown ? gasSettings.teardownGasLimits : Gas.ZERO;
    const gasUsed =
      o.gasUsed ?? new Gas(privateGas.daGas + teardownLimits.daGas, privateGas.l2Gas + teardownLimits.l2Gas);

    const now = o.now ?? BigInt(Math.floor(Date.now() / 1000));
    const expirationTimestamp =
      o.expirationTimestamp ?? (anchor.timestamp > 0n ? anchor.timestamp : now) + BigInt(MAX_TX_LIFETIME);

    const constants = new TxConstantData(
      anchor,
      new TxContext(new Fr(this.chain.chainId), new Fr(this.chain.rollupVersion), gasSettings),
      this.chain.vkTreeRoot,
      this.chain.protocolContractsHash,
    );
    if (!calls) {
      const data = new PrivateKernelTailCircuitPublicInputs(
        constants,
        gasUsed,
        o.feePayer,
        expirationTimestamp,
        PrivateToRollupAccumulatedData.fromSideEffects(sideEffects),
        undefined,
      );
      return new Tx(data, ChonkProof.empty(), classLogFields, []);
    }
    const phases = [calls.setup ?? [], calls.appLogic ?? [], calls.teardown ? [calls.teardown] : []];
    if (phases.every((p) => p.length === 0)) throw new RangeError('publicCalls must enqueue at least one call');
    const [setup, appLogic, teardown] = phases.map((p) => p.map((c) => TxBuilder.#enqueued(c)));
    const forPublic = new PartialPrivateTailPublicInputsForPublic(
      PrivateToPublicAccumulatedData.fromSideEffects(
        sideEffects,
        (setup ?? []).map((c) => c.request),
      ),
      PrivateToPublicAccumulatedData.fromSideEffects(
        {},
        (appLogic ?? []).map((c) => c.request),
      ),
      teardown?.[0]?.request ?? PublicCallRequest.EMPTY,
    );
    const data = new PrivateKernelTailCircuitPublicInputs(
      constants,
      gasUsed,
      o.feePayer,
      expirationTimestamp,
      undefined,
      forPublic,
    );
    const calldata = [...(setup ?? []), ...(appLogic ?? []), ...(teardown ?? [])].map((c) => c.calldata);
    return new Tx(data, ChonkProof.empty(), classLogFields, calldata);
  }

  /** A call's request, committing to its calldata by hash, and the calldata the tx carries beside it. */
  static #enqueued(c: PublicCallSpec): { request: PublicCallRequest; calldata: HashedValues } {
    const calldata = HashedValues.fromCalldata(c.calldata);
    return {
      request: new PublicCallRequest(c.msgSender, c.contractAddress, c.isStaticCall ?? false, calldata.hash),
      calldata,
    };
  }

  /** The address an instance publication derives (what the instance registry announces). */
  static instanceAddress(i: ContractInstanceSpec): AztecAddress {
    return computeContractAddressFromInstance({
      salt: i.salt,
      initializationHash: i.initializationHash,
      deployer: i.deployer,
      originalContractClassId: i.contractClassId,
      publicKeys: i.publicKeys,
    });
  }
}
