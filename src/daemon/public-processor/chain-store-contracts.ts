import { PROTOCOL_CONTRACTS } from '../../core/contract/protocol-contracts.js';
import { selectorFromSignature } from '../../core/contract/selector-from-signature.js';
import type { ChainStore } from '../store/chain-store.js';
import type { PublishedContracts } from './tx-contract-source.js';

/** Names 4.1.2's archiver registers at start-up: the protocol contracts' public functions. */
let protocolNames: Map<number, string> | undefined;

function protocolFunctionName(selector: number): string | undefined {
  protocolNames ??= new Map(
    PROTOCOL_CONTRACTS.flatMap((c) =>
      c.publicFunctionSignatures.map((sig) => [selectorFromSignature(sig).value, functionName(sig)] as const),
    ),
  );
  return protocolNames.get(selector);
}

/** 4.1.2 keeps a registered signature's name only (`transfer` for `transfer(Field,u128)`). */
function functionName(signature: string): string {
  const open = signature.indexOf('(');
  return open < 0 ? signature : signature.slice(0, open);
}

/**
 * The published contracts as the chain store holds them: instances with their class at a timestamp (upgrades
 * applied), classes, protocol contracts from genesis, and function names from registered signatures.
 */
export function chainStoreContracts(store: ChainStore): PublishedContracts {
  return {
    getContractInstanceAt: (address, timestamp) => store.getContractInstanceAt(address, timestamp),
    getContractClass: (classId) => store.getContractClass(classId),
    getFunctionName: (selector) => {
      const registered = store.functionSignatures.get(selector);
      return registered === undefined ? protocolFunctionName(selector) : functionName(registered);
    },
  };
}
