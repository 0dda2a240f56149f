/**
 * Headless Chromium for the browser tests, with nothing installed by hand: the one `npm ci` brings
 * (`@sparticuz/chromium` ships the binary inside its registry package and unpacks it on first use),
 * or the browser CHROMIUM_PATH names (e.g. Debian's /usr/bin/chromium).
 */
import { chromium, type Browser } from "playwright-core";

// The machine's network is closed: no background traffic, no component updates. Root in CI needs --no-sandbox.
const QUIET = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export async function launchChromium(): Promise<Browser> {
  const systemPath = process.env.CHROMIUM_PATH;
  if (systemPath) return chromium.launch({ executablePath: systemPath, args: QUIET });
  const { default: packaged } = await import("@sparticuz/chromium");
  return chromium.launch({ executablePath: await packaged.executablePath(), args: [...packaged.args, ...QUIET] });
}
