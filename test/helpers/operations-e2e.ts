/**
 * For the operations e2e tests: admin calls with the node's key, /status.
 */
import type { RpcAnswer } from './mempool-e2e.js';
import { postJson, type RunningNode, rpc } from './spawn-node.js';

/** One admin JSON-RPC call with the key the node printed at start. */
export async function admin(node: RunningNode, method: string, params: unknown[] = []): Promise<RpcAnswer> {
  const res = await postJson(node.adminUrl, rpc(method, params), { 'x-api-key': node.adminKey as string });
  return res.body as RpcAnswer;
}

/** An admin call that must succeed; its result. */
export async function adminOk(node: RunningNode, method: string, params: unknown[] = []): Promise<unknown> {
  const a = await admin(node, method, params);
  if (a.error) throw new Error(`${method}: ${a.error.code} ${a.error.message}`);
  return a.result;
}

/** A public call that must succeed; its result. */
export async function pub<T>(node: RunningNode, method: string, params: unknown[] = []): Promise<T> {
  const a = (await postJson(node.publicUrl, rpc(method, params))).body as RpcAnswer;
  if (a.error) throw new Error(`${method}: ${a.error.code} ${a.error.message}`);
  return a.result as T;
}

export interface StatusBody {
  status: string;
  state: string;
  ready: boolean;
  blockNumber: number;
  sync: { state: string; producer: string | null; pausedBy: string[]; distance?: number };
  tips?: { proposed: number; checkpointed: number; proven: number; finalized: number };
  pendingTxs: number;
  snapshot: {
    running: boolean;
    phase?: string;
    last?: { ok: boolean; indexUrl?: string; blockNumber?: number; blockHash?: string; error?: string };
  };
}

export async function status(node: RunningNode): Promise<StatusBody> {
  return (await (await fetch(`${node.publicUrl}/status`)).json()) as StatusBody;
}
