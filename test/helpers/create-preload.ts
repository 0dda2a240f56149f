/**
 * A `--require` preload for a started Action: it runs `atCreate` (CommonJS source) once, when the
 * step starts its create request (`POST …/agent/run`), before the request goes out. The bundle test
 * reads which built-ins were loaded by then; the cold-start benchmark reads the CPU time spent.
 * It loads node:http a little earlier than the bundle would.
 */
export function preloadAtCreate(atCreate: string): string {
  return [
    'const http = require("node:http");',
    "const request = http.request;",
    "let seen = false;",
    "http.request = function (...args) {",
    '  const options = args.find((a) => a && typeof a === "object" && !(a instanceof URL)) ?? {};',
    '  const url = String(args.find((a) => typeof a === "string" || a instanceof URL) ?? options.path ?? "");',
    '  if (!seen && options.method === "POST" && /\\/agent\\/run$/.test(url)) {',
    "    seen = true;",
    `    ${atCreate}`,
    "  }",
    "  return request.apply(this, args);",
    "};",
    "",
  ].join("\n");
}
