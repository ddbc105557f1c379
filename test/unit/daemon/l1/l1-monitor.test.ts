import { describe, expect, it } from 'vitest';
import { redactRpcUrl } from '../../../../src/daemon/l1/l1-monitor.js';
import { formatEth } from '../../../../src/ui/text-format.js';

describe('redactRpcUrl', () => {
  it('keeps scheme, host and port; drops credentials, path, query and fragment (they may hold API keys)', () => {
    expect(redactRpcUrl('https://user:secret@eth.example.com:8443/v3/KEY?apikey=KEY#x')).toBe(
      'https://eth.example.com:8443',
    );
    expect(redactRpcUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
    expect(redactRpcUrl('not a url')).toBe('(unparsable URL)');
  });
});

describe('formatEth', () => {
  it('shows wei as ETH with up to 4 decimals, rounded down', () => {
    expect(formatEth('9999986113012345678901')).toBe('9999.9861 ETH');
    expect(formatEth('1000000000000000000')).toBe('1 ETH');
    expect(formatEth('120000000000000000')).toBe('0.12 ETH');
    expect(formatEth('99999999999999')).toBe('0 ETH');
  });
});
