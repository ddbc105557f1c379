import type { StartNode } from './api-types.js';

/**
 * The module that starts a node, by a name the compiler does not follow: importing the package entry (or its
 * types) then loads and type-checks nothing of the daemon; startNode loads it on first call.
 */
const START_NODE_MODULE = './start-node.js';

export async function loadStartNode(): Promise<StartNode> {
  const m = (await import(START_NODE_MODULE)) as { startNode: StartNode };
  return m.startNode;
}
