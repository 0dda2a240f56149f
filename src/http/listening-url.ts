import type { AddressInfo } from "node:net";

/** `http://host:port` a listening server is reached at: a wildcard bind on loopback, IPv6 literals in brackets. */
export function listeningUrl(address: AddressInfo): string {
  const host = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}
