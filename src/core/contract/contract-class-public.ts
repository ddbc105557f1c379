import type { Fr } from '../fr.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import {
  readArray,
  readBuffer,
  readFr,
  readFrArray,
  readInteger,
  readObject,
  readString,
} from '../serialize/json-reader.js';
import { FunctionSelector } from './function-selector.js';

/** A private function broadcast with a proof that it belongs to its class. */
export interface PrivateFunctionWithMembershipProof {
  selector: FunctionSelector;
  vkHash: Fr;
  bytecode: Buffer;
  artifactMetadataHash: Fr;
  functionMetadataHash: Fr;
  utilityFunctionsTreeRoot: Fr;
  privateFunctionTreeSiblingPath: Fr[];
  privateFunctionTreeLeafIndex: number;
  artifactTreeSiblingPath: Fr[];
  artifactTreeLeafIndex: number;
}

/** A utility (unconstrained) function broadcast with a proof that it belongs to its class. */
export interface UtilityFunctionWithMembershipProof {
  selector: FunctionSelector;
  bytecode: Buffer;
  artifactMetadataHash: Fr;
  functionMetadataHash: Fr;
  privateFunctionsArtifactTreeRoot: Fr;
  artifactTreeSiblingPath: Fr[];
  artifactTreeLeafIndex: number;
}

export interface ContractClassPublicJson {
  id: string;
  artifactHash: string;
  packedBytecode: string;
  privateFunctionsRoot: string;
  privateFunctions: Record<string, unknown>[];
  utilityFunctions: Record<string, unknown>[];
  version: 1;
}

/**
 * A published contract class as `node_getContractClass` returns it (docs/aztec-facts.md section 2.7): id, artifact
 * hash, packed public bytecode (base64), private functions root, version 1, and the private and utility
 * functions broadcast so far (usually none). Key order follows the verified 4.1.2 sample.
 */
export class ContractClassPublic {
  readonly version = 1 as const;

  constructor(
    readonly id: Fr,
    readonly artifactHash: Fr,
    readonly packedBytecode: Buffer,
    readonly privateFunctionsRoot: Fr,
    readonly privateFunctions: readonly PrivateFunctionWithMembershipProof[] = [],
    readonly utilityFunctions: readonly UtilityFunctionWithMembershipProof[] = [],
  ) {}

  toJSON(): ContractClassPublicJson {
    return {
      id: this.id.toString(),
      artifactHash: this.artifactHash.toString(),
      packedBytecode: this.packedBytecode.toString('base64'),
      privateFunctionsRoot: this.privateFunctionsRoot.toString(),
      privateFunctions: this.privateFunctions.map((f) => ({
        selector: f.selector.toString(),
        vkHash: f.vkHash.toString(),
        bytecode: f.bytecode.toString('base64'),
        artifactMetadataHash: f.artifactMetadataHash.toString(),
        functionMetadataHash: f.functionMetadataHash.toString(),
        utilityFunctionsTreeRoot: f.utilityFunctionsTreeRoot.toString(),
        privateFunctionTreeSiblingPath: f.privateFunctionTreeSiblingPath.map((x) => x.toString()),
        privateFunctionTreeLeafIndex: f.privateFunctionTreeLeafIndex,
        artifactTreeSiblingPath: f.artifactTreeSiblingPath.map((x) => x.toString()),
        artifactTreeLeafIndex: f.artifactTreeLeafIndex,
      })),
      utilityFunctions: this.utilityFunctions.map((f) => ({
        selector: f.selector.toString(),
        bytecode: f.bytecode.toString('base64'),
        artifactMetadataHash: f.artifactMetadataHash.toString(),
        functionMetadataHash: f.functionMetadataHash.toString(),
        privateFunctionsArtifactTreeRoot: f.privateFunctionsArtifactTreeRoot.toString(),
        artifactTreeSiblingPath: f.artifactTreeSiblingPath.map((x) => x.toString()),
        artifactTreeLeafIndex: f.artifactTreeLeafIndex,
      })),
      version: 1,
    };
  }

  static fromJSON(json: unknown, path = 'contractClass'): ContractClassPublic {
    const o = readObject(json, path);
    if (o.version !== 1)
      throw new DecodeError(joinPath(path, 'version'), `expected 1, received ${JSON.stringify(o.version)}`);
    const pfPath = joinPath(path, 'privateFunctions');
    const ufPath = joinPath(path, 'utilityFunctions');
    return new ContractClassPublic(
      readFr(o.id, path, 'id'),
      readFr(o.artifactHash, path, 'artifactHash'),
      readBuffer(o.packedBytecode, path, 'packedBytecode'),
      readFr(o.privateFunctionsRoot, path, 'privateFunctionsRoot'),
      readArray(o.privateFunctions, path, 'privateFunctions').map((x, i) => {
        const p = joinPath(pfPath, i);
        const f = readObject(x, p);
        return {
          selector: FunctionSelector.fromString(readString(f.selector, p, 'selector'), joinPath(p, 'selector')),
          vkHash: readFr(f.vkHash, p, 'vkHash'),
          bytecode: readBuffer(f.bytecode, p, 'bytecode'),
          artifactMetadataHash: readFr(f.artifactMetadataHash, p, 'artifactMetadataHash'),
          functionMetadataHash: readFr(f.functionMetadataHash, p, 'functionMetadataHash'),
          utilityFunctionsTreeRoot: readFr(f.utilityFunctionsTreeRoot, p, 'utilityFunctionsTreeRoot'),
          privateFunctionTreeSiblingPath: readFrArray(
            f.privateFunctionTreeSiblingPath,
            p,
            'privateFunctionTreeSiblingPath',
          ),
          privateFunctionTreeLeafIndex: readInteger(f.privateFunctionTreeLeafIndex, p, 'privateFunctionTreeLeafIndex'),
          artifactTreeSiblingPath: readFrArray(f.artifactTreeSiblingPath, p, 'artifactTreeSiblingPath'),
          artifactTreeLeafIndex: readInteger(f.artifactTreeLeafIndex, p, 'artifactTreeLeafIndex'),
        };
      }),
      readArray(o.utilityFunctions, path, 'utilityFunctions').map((x, i) => {
        const p = joinPath(ufPath, i);
        const f = readObject(x, p);
        return {
          selector: FunctionSelector.fromString(readString(f.selector, p, 'selector'), joinPath(p, 'selector')),
          bytecode: readBuffer(f.bytecode, p, 'bytecode'),
          artifactMetadataHash: readFr(f.artifactMetadataHash, p, 'artifactMetadataHash'),
          functionMetadataHash: readFr(f.functionMetadataHash, p, 'functionMetadataHash'),
          privateFunctionsArtifactTreeRoot: readFr(
            f.privateFunctionsArtifactTreeRoot,
            p,
            'privateFunctionsArtifactTreeRoot',
          ),
          artifactTreeSiblingPath: readFrArray(f.artifactTreeSiblingPath, p, 'artifactTreeSiblingPath'),
          artifactTreeLeafIndex: readInteger(f.artifactTreeLeafIndex, p, 'artifactTreeLeafIndex'),
        };
      }),
    );
  }
}
