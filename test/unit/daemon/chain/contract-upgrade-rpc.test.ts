/**
 * node_getContract of an upgraded instance, over real JSON-RPC read by the official 4.1.2 client: a dev chain on
 * a manual clock publishes two classes and an instance, the instance schedules its upgrade through the
 * ContractInstanceRegistry's public `update` (run by our AVM), and the node answers the original class until the
 * latest block's timestamp reaches the timestamp of change, then the new one (4.1.2's archiver answers
 * `getContract(address)` at the latest block's timestamp). Protocol contracts are there from genesis, as 4.1.2's
 * archiver registers them.
 */
import { getCanonicalInstanceRegistry } from '@aztec/protocol-contracts/instance-registry';
import { FunctionSelector } from '@aztec/stdlib/abi';
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import { createAztecNodeClient } from '@aztec/stdlib/interfaces/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, FEE_JUICE_ADDRESS } from '../../../../src/core/constants.js';
import { ContractClassPublishedEvent } from '../../../../src/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../../../src/core/contract/public-keys.js';
import { Fr } from '../../../../src/core/fr.js';
import { type ContractClassSpec, TxBuilder } from '../../../../src/core/tx/tx-builder.js';
import { chainRpcHandlers } from '../../../../src/daemon/chain/chain-rpc-handlers.js';
import { RpcService } from '../../../../src/rpc/server/rpc-service.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';
import { rpcServiceOptions } from '../../../helpers/rpc-service-options.js';
import { testHandlers } from '../../../helpers/test-handlers.js';
import { type DevChain, startDevChain } from './dev-chain-fixture.js';

const classSpec = (seed: bigint): ContractClassSpec => ({
  artifactHash: new Fr(seed),
  privateFunctionsRoot: new Fr(seed + 1n),
  // The instance never runs code of its own here: any bytecode is a class.
  packedBytecode: Buffer.from([0x01, Number(seed & 0xffn)]),
});
const classId = (c: ContractClassSpec) =>
  ContractClassPublishedEvent.create(c.artifactHash, c.privateFunctionsRoot, c.packedBytecode).contractClassId;
const ORIGINAL = classSpec(0xa0n);
const UPGRADE = classSpec(0xb0n);
const instance = {
  salt: new Fr(0x5a17n),
  contractClassId: classId(ORIGINAL),
  initializationHash: new Fr(0n),
  publicKeys: PublicKeys.default(),
  deployer: AztecAddress.ZERO,
};
const ADDRESS = TxBuilder.instanceAddress(instance);
/** The registry's default delay between an update and its taking effect (DEFAULT_UPDATE_DELAY, seconds). */
const UPDATE_DELAY = 86_400;

let chain: DevChain;
let rpc: RpcService;

beforeAll(async () => {
  await initAztecOracle();
  chain = await startDevChain();
  // The chain's own handlers, as the daemon binds them.
  rpc = new RpcService(rpcServiceOptions({ handlers: testHandlers(chainRpcHandlers(chain.service, chain.config)) }));
  await rpc.start();
}, 60_000);

afterAll(async () => {
  await rpc?.stop();
  await chain?.close();
});

/** Mines `txs` in the next block and checks none was dropped. */
function mine(...txs: ReturnType<DevChain['tx']>[]): void {
  const before = chain.service.chain.latestBlockNumber;
  chain.source.add(...txs);
  chain.advanceBlocks();
  expect(chain.source.dropped).toEqual([]);
  expect(chain.service.chain.latestBlockNumber).toBe(before + 1);
}

async function updateCalldata(newClassId: Fr): Promise<Fr[]> {
  const { artifact } = await getCanonicalInstanceRegistry();
  const fn = [...artifact.functions, ...(artifact.nonDispatchPublicFunctions ?? [])].find((f) => f.name === 'update');
  if (!fn) throw new Error('the instance registry has no update function');
  const selector = await FunctionSelector.fromNameAndParameters(fn.name, fn.parameters);
  return [new Fr(selector.toField().toBigInt()), newClassId];
}

describe('node_getContract of an upgraded instance (official 4.1.2 client)', () => {
  const client = () => createAztecNodeClient(rpc.publicUrl);
  const current = async () =>
    (await client().getContract(StdAztecAddress.fromBigInt(ADDRESS.value)))?.currentContractClassId.toBigInt();

  it('answers the protocol contracts from genesis, with their classes', async () => {
    const feeJuice = await client().getContract(StdAztecAddress.fromBigInt(FEE_JUICE_ADDRESS));
    expect(feeJuice?.address.toBigInt()).toBe(FEE_JUICE_ADDRESS);
    const klass = await client().getContractClass(feeJuice?.currentContractClassId as never);
    expect(klass?.id.toBigInt()).toBe(feeJuice?.currentContractClassId.toBigInt());
    expect(klass?.packedBytecode.length).toBeGreaterThan(0);
  });

  it('answers the original class until the upgrade takes effect, then the new one', async () => {
    mine(chain.tx({ publishContractClass: ORIGINAL, publishContractInstances: [instance] }));
    mine(chain.tx({ publishContractClass: UPGRADE }));
    expect(await current()).toBe(classId(ORIGINAL).value);

    // The instance asks the registry for its upgrade: the registry reads msg_sender as the instance to update.
    const publishedAt = chain.clock.now();
    mine(
      chain.tx({
        publicCalls: {
          appLogic: [
            {
              contractAddress: new AztecAddress(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS),
              msgSender: ADDRESS,
              calldata: await updateCalldata(classId(UPGRADE)),
            },
          ],
        },
      }),
    );
    const effect = chain.service.chain.store.getBlock(chain.service.chain.latestBlockNumber)?.body.txEffects[0];
    expect(effect?.revertCode).toBe(0);
    expect(effect?.publicLogs.length).toBe(1);
    // Scheduled, not in force: the original class, and the instance still says where it came from.
    const scheduled = await client().getContract(StdAztecAddress.fromBigInt(ADDRESS.value));
    expect(scheduled?.currentContractClassId.toBigInt()).toBe(classId(ORIGINAL).value);
    expect(scheduled?.originalContractClassId.toBigInt()).toBe(classId(ORIGINAL).value);

    // A block whose timestamp is just short of the change: still the original.
    chain.clock.advance((UPDATE_DELAY - 60) * 1000 - (chain.clock.now() - publishedAt));
    mine(chain.tx());
    expect(await current()).toBe(classId(ORIGINAL).value);

    // A block past it: the new class, the original one kept as such.
    chain.clock.advance(120_000);
    mine(chain.tx());
    const upgraded = await client().getContract(StdAztecAddress.fromBigInt(ADDRESS.value));
    expect(upgraded?.currentContractClassId.toBigInt()).toBe(classId(UPGRADE).value);
    expect(upgraded?.originalContractClassId.toBigInt()).toBe(classId(ORIGINAL).value);
    expect(upgraded?.address.toBigInt()).toBe(ADDRESS.value);
  }, 120_000);
});
