import Fastify from 'fastify';
import { parseTrustProxy, trustProxyProblem } from './trust-proxy';

/** The address Fastify gives a request from `remote` that says it forwards for 6.6.6.6. */
async function clientAddress(trustProxy: string, remote: string): Promise<string> {
  const app = Fastify({ trustProxy: parseTrustProxy(trustProxy) });
  app.get('/', (request) => request.ip);
  try {
    const reply = await app.inject({
      url: '/',
      remoteAddress: remote,
      headers: { 'x-forwarded-for': '6.6.6.6' },
    });
    return reply.body;
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY ranges', () => {
  it.each([
    '0.0.0.0/0',
    '0.0.0.0/1',
    '128.0.0.0/7',
    '::/0',
    '2000::/3',
    'fc00::/6',
    '::ffff:10.0.0.1/96',
    '::ffff:0:0/96',
    '::ffff:10.0.0.1/103',
    '0:0:0:0:0:FFFF:0A00:0001/100',
    '10.0.0.2, 0.0.0.0/0',
  ])('refuses %p, which trusts public addresses, naming TRUST_PROXY', (value) => {
    const problem = trustProxyProblem(value);
    expect(problem).toMatch(/^TRUST_PROXY: ".+" is refused: it trusts public addresses, /);
    expect(problem).toContain('at widest /8 for IPv4 (::ffff:a.b.c.d/104 when IPv4-mapped)');
    expect(() => parseTrustProxy(value)).toThrow(problem);
  });

  it('names only the entries that are too wide', () => {
    expect(trustProxyProblem('10.0.0.2, ::/0, 0.0.0.0/0')).toMatch(
      /^TRUST_PROXY: "::\/0", "0\.0\.0\.0\/0" is refused/,
    );
  });

  it.each([
    ['10.0.0.0/8', '10.1.2.3', '6.6.6.6'],
    ['10.0.0.0/8', '11.0.0.1', '11.0.0.1'],
    ['fc00::/7', 'fd00::1', '6.6.6.6'],
    ['fc00::/7', '2001:db8::1', '2001:db8::1'],
    ['::ffff:10.0.0.0/104', '10.9.9.9', '6.6.6.6'],
    ['::ffff:10.0.0.0/104', '8.8.8.8', '8.8.8.8'],
    ['::ffff:10.0.0.1', '8.8.8.8', '8.8.8.8'],
  ])('takes %p: Fastify trusts only it (a request from %s is from %s)', async (value, from, ip) => {
    expect(trustProxyProblem(value)).toBeUndefined();
    expect(await clientAddress(value, from)).toBe(ip);
  });
});
