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

/** An address (`10.0.0.2`, `::1`) or a CIDR (`172.16.0.0/12`, `fd00::/8`), checked by Node. */
function isAddressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  // Zone ids (`fe80::1%eth0`) never appear in X-Forwarded-For.
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 0) return false;
  if (slash < 0) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
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
  const bad = entries.filter(
    (entry) => !NAMED_PROXY_RANGES.includes(entry) && !isAddressOrCidr(entry),
  );
  if (entries.length === 0 || bad.length > 0) {
    const what = bad.length ? `not an address, CIDR or range name: "${bad.join('", "')}"` : 'empty';
    return { problem: `TRUST_PROXY: ${what}; set ${WHAT_TO_SET}` };
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
