import { type AddressInfo, createServer } from 'node:net';

/**
 * A loopback port nothing listens on right now (the OS just released it): for a listener that cannot take port 0
 * (a container's published port), or for a connection that must be refused.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
