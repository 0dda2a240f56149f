/**
 * Which service URLs the bridge sends its API token to: `https://` anywhere, plain `http://` only on
 * loopback (127.0.0.0/8, ::1, localhost), where the emulator and the demo run. Anything else would
 * put the token and every prompt on the network in clear text.
 */

/** 127.0.0.0/8, ::1 and localhost, as `URL.hostname` spells them. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]") return true;
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

export const SERVICE_URL_RULE =
  "must be an https:// URL such as https://agents.example.com (plain http:// only on loopback: 127.0.0.1, ::1 or localhost), without credentials in it";

/**
 * Whether the bridge may send its token to this service base URL; when not, SERVICE_URL_RULE (to
 * follow the setting's name, with the value the caller chooses to echo) says what would do.
 */
export function isAllowedServiceUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "") return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

/** The URL as an error may show it: credentials in it are masked. */
export function urlForMessage(value: string): string {
  try {
    const url = new URL(value);
    if (url.username === "" && url.password === "") return value;
    url.username = url.username ? "***" : "";
    url.password = url.password ? "***" : "";
    return url.toString();
  } catch {
    return value;
  }
}
