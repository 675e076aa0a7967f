import { describe, expect, it } from 'vitest';
import { nodeStartLine } from './processes.mjs';

/** The bench's line on how long a bare Node process takes to start (bench/processes.mjs). */
describe('nodeStartLine', () => {
  it('gives the time of `node -e 0`, and without NODE_EXTRA_CA_CERTS when it is set', () => {
    const { NODE_EXTRA_CA_CERTS: _certs, ...plain } = process.env;
    expect(nodeStartLine(plain, 1)).toMatch(/^Node start: `node -e 0` \d+ ms\.$/);
    const line = nodeStartLine({ ...plain, NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }, 1);
    expect(line).toMatch(/^Node start: `node -e 0` \d+ ms with NODE_EXTRA_CA_CERTS set, .*, \d+ ms without;/);
  });
});
