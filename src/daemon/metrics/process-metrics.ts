import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * prom-client's default series (CPU, resident memory, heap, event-loop lag, GC, handles, file descriptors) in a
 * registry of their own, collected once per process: they describe the process, not one node, and each
 * collection starts observers (GC, event-loop delay) that live as long as the process. Several nodes in one
 * process (tests) share it; each node's registry stays its own.
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
