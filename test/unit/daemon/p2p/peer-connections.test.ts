import { describe, expect, it } from 'vitest';
import { connectionsByPeer } from '../../../../src/daemon/p2p/peer-connections.js';

describe('the peers view groups connections by peer', () => {
  it('lists a peer that dialled while being dialled once, with the direction of its oldest connection', () => {
    const views = connectionsByPeer([
      { peer: 'A', direction: 'outbound', address: '/ip4/127.0.0.1/tcp/4001', openedAt: 20 },
      { peer: 'B', direction: 'inbound', address: '/ip4/127.0.0.1/tcp/5555', openedAt: 30 },
      { peer: 'A', direction: 'inbound', address: '/ip4/127.0.0.1/tcp/61000', openedAt: 10 },
      { peer: 'A', direction: 'outbound', address: '/ip4/127.0.0.1/tcp/4001', openedAt: 40 },
    ]);
    expect(views).toEqual([
      { peer: 'A', direction: 'inbound', addresses: ['/ip4/127.0.0.1/tcp/4001', '/ip4/127.0.0.1/tcp/61000'] },
      { peer: 'B', direction: 'inbound', addresses: ['/ip4/127.0.0.1/tcp/5555'] },
    ]);
  });

  it('lists nothing without connections', () => {
    expect(connectionsByPeer([])).toEqual([]);
  });
});
