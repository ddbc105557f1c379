/** Where the node is in its lifecycle: GET /status, the production status and `node_isReady` read it. */
export type NodeState = 'starting' | 'running' | 'stopping' | 'stopped';
