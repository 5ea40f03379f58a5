import { isIP } from 'node:net';

/**
 * Which proxies in front of the API are trusted to tell the client's address (Fastify's
 * `trustProxy`): none, the number of hops in front, or the proxies' addresses and CIDRs.
 */
export type TrustProxy = false | number | string[];

/** The most proxies one request may cross before the API; more is a typo, not a deployment. */
export const MAX_TRUSTED_HOPS = 10;

/** proxy-addr's named ranges, which Fastify passes on. */
export const NAMED_PROXY_RANGES: readonly string[] = ['loopback', 'linklocal', 'uniquelocal'];

const WHAT_TO_SET =
  `the number of proxies in front (1 to ${MAX_TRUSTED_HOPS}, e.g. 1) or their addresses, ` +
  'comma-separated (e.g. 10.0.0.2, 172.16.0.0/12 or loopback), or false without a proxy';

/** Why `true` is refused: the start-up message names the risk and what to set instead. */
export const TRUST_PROXY_TRUE_REFUSED =
  'TRUST_PROXY=true is refused: it trusts every hop, so a client can forge X-Forwarded-For and ' +
  `pick its own address (and rate-limit budget); set ${WHAT_TO_SET}`;

/**
 * The widest CIDRs accepted: the widest private ranges, 10.0.0.0/8 and fc00::/7. A wider one
 * (`0.0.0.0/1`, `::/0`) trusts public addresses, so any client could forge its own.
 */
export const MIN_TRUSTED_PREFIX = { ipv4: 8, ipv6: 7 } as const;

/**
 * IPv4-mapped IPv6 (`::ffff:10.0.0.1`, `::ffff:a00:1`, `0:0:0:0:0:ffff:...`): proxy-addr matches
 * `/n` of it as the IPv4 `/(n-96)`. The URL parser writes every spelling of an IPv6 one way.
 */
function isIpv4Mapped(address: string): boolean {
  return /^\[::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}\]$/.test(new URL(`http://[${address}]/`).hostname);
}

/**
 * What is wrong with an address (`10.0.0.2`, `::1`) or a CIDR (`172.16.0.0/12`, `fd00::/8`),
 * checked by Node: undefined when it is fine, `malformed` or `too-wide`.
 */
function addressOrCidrProblem(entry: string): 'malformed' | 'too-wide' | undefined {
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  // Zone ids (`fe80::1%eth0`) never appear in X-Forwarded-For.
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 0) return 'malformed';
  if (slash < 0) return undefined;
  const text = entry.slice(slash + 1);
  const prefix = Number(text);
  if (!/^\d{1,3}$/.test(text) || prefix > (version === 4 ? 32 : 128)) return 'malformed';
  const widest =
    version === 6 && isIpv4Mapped(address)
      ? 96 + MIN_TRUSTED_PREFIX.ipv4
      : version === 4
        ? MIN_TRUSTED_PREFIX.ipv4
        : MIN_TRUSTED_PREFIX.ipv6;
  return prefix < widest ? 'too-wide' : undefined;
}

function readTrustProxy(value: string | undefined): TrustProxy | { problem: string } {
  const text = (value ?? '').trim();
  if (text === '' || text.toLowerCase() === 'false') return false;
  if (text.toLowerCase() === 'true') return { problem: TRUST_PROXY_TRUE_REFUSED };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= MAX_TRUSTED_HOPS) return hops;
    return { problem: `TRUST_PROXY: ${text} proxies is out of range; set ${WHAT_TO_SET}` };
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const problems = entries.map((entry) =>
    NAMED_PROXY_RANGES.includes(entry) ? undefined : addressOrCidrProblem(entry),
  );
  const bad = entries.filter((_, i) => problems[i] === 'malformed');
  const wide = entries.filter((_, i) => problems[i] === 'too-wide');
  if (entries.length === 0 || bad.length > 0) {
    const what = bad.length ? `not an address, CIDR or range name: "${bad.join('", "')}"` : 'empty';
    return { problem: `TRUST_PROXY: ${what}; set ${WHAT_TO_SET}` };
  }
  if (wide.length > 0) {
    const { ipv4, ipv6 } = MIN_TRUSTED_PREFIX;
    return {
      problem:
        `TRUST_PROXY: "${wide.join('", "')}" is refused: it trusts public addresses, so a ` +
        `client could forge X-Forwarded-For; a CIDR may be at widest /${ipv4} for IPv4 ` +
        `(::ffff:a.b.c.d/${96 + ipv4} when IPv4-mapped) and /${ipv6} for IPv6; set ${WHAT_TO_SET}`,
    };
  }
  return entries;
}

/** Why a `TRUST_PROXY` value is refused, or undefined when it is accepted. */
export function trustProxyProblem(value: string | undefined): string | undefined {
  const read = readTrustProxy(value);
  return typeof read === 'object' && !Array.isArray(read) ? read.problem : undefined;
}

/**
 * `TRUST_PROXY` as Fastify takes it: unset, empty or `false`; a hop count; or a list of
 * addresses, CIDRs and named ranges. The client's address is then the first one, from the right
 * of X-Forwarded-For, that no trusted proxy added. Throws on a refused value.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const read = readTrustProxy(value);
  if (typeof read === 'object' && !Array.isArray(read)) throw new Error(read.problem);
  return read;
}
