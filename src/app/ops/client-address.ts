/**
 * Who is asking, as the throttle of wrong tokens counts clients. The socket's peer, unless the
 * operator named the proxies in front of the App (TRUST_PROXY): only then is `X-Forwarded-For` read,
 * and only as far back as those proxies vouch for it (@fastify/proxy-addr, Express's rules), so a
 * client cannot pick a fresh address per guess by writing the header itself.
 */
import type { IncomingMessage } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import ipaddr from "ipaddr.js";

type TrustFunction = (address: string, hop: number) => boolean;

/** Which hops to believe: none, the nearest `n`, or those whose address is in the list. */
export function compileTrustProxy(trust: number | readonly string[]): TrustFunction {
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return proxyAddr.compile([...trust]);
}

/**
 * The client's address as one key per client: IPv4-mapped IPv6 as IPv4, and an IPv6 address by its
 * /64 (one subscriber's network: the next 2^64 addresses are as much theirs as this one).
 */
export function clientKeyOf(req: IncomingMessage, trust: TrustFunction): string {
  const address = proxyAddr(req, trust);
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}
