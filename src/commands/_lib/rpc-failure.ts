import type { RpcClientError } from '../../rpc/client/rpc-client-error.js';
import { INVALID_PARAMS, METHOD_NOT_FOUND } from '../../rpc/errors.js';
import { CliError } from './cli-error.js';
import { EXIT_CODES } from './exit-codes.js';

/** Which listener a failed call went to: it decides which flag and env variable the next step names. */
export type ListenerKind = 'public' | 'admin';

/**
 * A failed RPC call as a command error: the client's message (it already says what to do), an exit code
 * from its kind, and the node's JSON-RPC code and data for scripts.
 */
export function rpcFailure(err: RpcClientError, listener: ListenerKind): CliError {
  const rpc = err.code === undefined ? undefined : { code: err.code, data: err.data };
  switch (err.kind) {
    case 'unreachable':
    case 'timeout':
      return new CliError(err.message, {
        exitCode: EXIT_CODES.unreachable,
        code: err.kind === 'timeout' ? 'TIMEOUT' : 'UNREACHABLE',
        actions:
          listener === 'admin'
            ? ['start a node: l2node start', 'or name its admin listener: --admin-url / NODE_ADMIN_URL']
            : ['start a node: l2node start', 'or name it: --node-url / NODE_URL'],
      });
    case 'unauthorized':
      return new CliError(err.message, {
        exitCode: EXIT_CODES.unauthorized,
        code: 'UNAUTHORIZED',
        actions: [
          'save the key once: l2node admin login (it reads the key from a prompt or stdin)',
          'or pass it: --api-key / NODE_ADMIN_API_KEY',
        ],
        data: rpc,
      });
    case 'rpc':
      return fromJsonRpcError(err, rpc);
    default:
      return new CliError(err.message, { exitCode: EXIT_CODES.error, code: 'BAD_RESPONSE', data: rpc });
  }
}

function fromJsonRpcError(err: RpcClientError, rpc: { code: number; data: unknown } | undefined): CliError {
  const dataCode = isObject(err.data) && typeof err.data.code === 'string' ? err.data.code : undefined;
  if (err.code === METHOD_NOT_FOUND) {
    const notYet = / is not available yet/.test(err.message);
    return new CliError(err.message, {
      exitCode: EXIT_CODES.error,
      code: notYet ? 'NOT_AVAILABLE' : 'METHOD_NOT_FOUND',
      actions: notYet ? ['this node does not serve the method yet; a newer l2node may'] : [],
      data: rpc,
    });
  }
  if (err.code === INVALID_PARAMS) {
    return new CliError(err.message, { exitCode: EXIT_CODES.usage, code: 'INVALID_PARAMS', data: rpc });
  }
  if (dataCode === 'BLOCK_NOT_AVAILABLE') {
    return new CliError(err.message, {
      exitCode: EXIT_CODES.notFound,
      code: 'NOT_FOUND',
      actions: ['see which blocks the node has: l2node query tips'],
      data: rpc,
    });
  }
  // TX_REJECTED carries the rejection code (LOW_PRIORITY_FEE...) as data.code: scripts switch on that.
  return new CliError(err.message, { exitCode: EXIT_CODES.error, code: dataCode ?? 'RPC_ERROR', data: rpc });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
