import type { ZodType, z } from 'zod';
import { rpcErrors } from '../errors.js';
import type { ParamSpec, RpcMethod } from '../rpc-method.js';

/**
 * Reads the positional params of one request into the handler's arguments, or throws -32602. Before zod is
 * loaded (the first call of a method with params), the arguments come as a promise that settles the same way.
 */
export type ParamParser = (params: unknown) => unknown[] | Promise<unknown[]>;

const NO_ARGS: unknown[] = [];

/**
 * zod, loaded with the first request that has params to read: loading it (a tenth of the start bundle) was a share
 * of every start's time before the node served (bench/startup), and a node that is only asked for its status or
 * parameterless getters never needs it.
 */
let zod: typeof z | undefined;
let zodLoading: Promise<typeof z> | undefined;
export function loadZod(): Promise<typeof z> {
  zodLoading ??= import('zod').then((m) => {
    zod = m.z;
    return m.z;
  });
  return zodLoading;
}

/**
 * Builds the parser of a method once, at server start; its zod schemas are built with the method's first call
 * (most methods are never called by a given node: building them all was a share of a start). Params must be an
 * array (missing means []);
 * trailing optional params may be omitted or null; more params than declared are refused, so a typo'd
 * call fails loudly instead of being half-understood. Each message names the param index, its name and
 * what was expected.
 */
export function buildParamParser(method: RpcMethod): ParamParser {
  const specs = method.params;
  const name = method.name;
  if (specs.length === 0) {
    // The hot path of the small getters: no zod, no allocation.
    return (params) => {
      if (params === undefined || (Array.isArray(params) && params.length === 0)) return NO_ARGS;
      checkArray(name, params);
      throw rpcErrors.invalidParams(`${name} takes no params, got ${(params as unknown[]).length}`);
    };
  }
  let schemas: ZodType[] | undefined;
  const read = (list: unknown[], loaded: typeof z): unknown[] => {
    schemas ??= specs.map((spec) => spec.wire.schema(loaded));
    const args = new Array<unknown>(specs.length);
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i] as ParamSpec;
      const value = list[i];
      if (value === undefined || value === null) {
        if (spec.presence === 'required') {
          const what = value === null ? `expected ${spec.wire.type}, got null` : `missing (expected ${spec.wire.type})`;
          throw rpcErrors.invalidParams(`Invalid param ${i} (${spec.name}) of ${name}: ${what}`);
        }
        args[i] = spec.presence === 'defaulted' ? spec.defaultValue : undefined;
        continue;
      }
      const parsed = (schemas[i] as ZodType).safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = issue ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') : '';
        throw rpcErrors.invalidParams(
          `Invalid param ${i} (${spec.name}${path}) of ${name}: ${issue?.message ?? `expected ${spec.wire.type}`}`,
        );
      }
      args[i] = parsed.data;
    }
    return args;
  };
  return (params) => {
    const list = params === undefined ? NO_ARGS : checkArray(name, params);
    if (list.length > specs.length) {
      throw rpcErrors.invalidParams(
        `${name} takes at most ${specs.length} param${specs.length === 1 ? '' : 's'} (${specs.map((s) => s.name).join(', ')}), got ${list.length}`,
      );
    }
    return zod ? read(list, zod) : loadZod().then((loaded) => read(list, loaded));
  };
}

function checkArray(name: string, params: unknown): unknown[] {
  if (!Array.isArray(params)) {
    const got = params === null ? 'null' : typeof params === 'object' ? 'an object' : typeof params;
    throw rpcErrors.invalidParams(`Invalid params of ${name}: params must be an array (positional), got ${got}`);
  }
  return params;
}
