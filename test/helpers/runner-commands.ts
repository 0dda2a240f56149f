/**
 * The workflow commands a GitHub runner would act on in a step's output, read as actions/runner
 * reads them (src/Runner.Worker/Handlers/OutputManager.cs, ActionCommandManager.cs and
 * src/Runner.Common/ActionCommand.cs): each line holding `::` or `##[` is tried as the current form
 * (`::name props::data` at the start after white space), then the old one (`##[name props]data`
 * anywhere); only registered names count; `stop-commands` pauses everything until `::<token>::`.
 */
const REGISTERED = [
  "add-mask",
  "add-matcher",
  "add-path",
  "debug",
  "echo",
  "endgroup",
  "error",
  "group",
  "notice",
  "remove-matcher",
  "save-state",
  "set-env",
  "set-output",
  "warning",
  "stop-commands",
];

export interface RunnerCommand {
  name: string;
  properties: Record<string, string>;
  data: string;
  line: string;
}

function parse(line: string, registered: Set<string>): RunnerCommand | null {
  const trimmed = line.trimStart();
  if (trimmed.startsWith("::")) {
    const end = trimmed.indexOf("::", 2);
    if (end >= 0) {
      const info = trimmed.slice(2, end);
      const space = info.indexOf(" ");
      const name = space < 0 ? info : info.slice(0, space);
      if (registered.has(name.toLowerCase())) {
        return {
          name: name.toLowerCase(),
          properties: properties(space < 0 ? "" : info.slice(space + 1), ","),
          data: trimmed.slice(end + 2),
          line,
        };
      }
    }
  }
  const prefix = line.indexOf("##[");
  if (prefix < 0) return null;
  const close = line.indexOf("]", prefix);
  if (close < 0) return null;
  const info = line.slice(prefix + 3, close);
  const space = info.indexOf(" ");
  const name = space < 0 ? info : info.slice(0, space);
  if (!registered.has(name.toLowerCase())) return null;
  return {
    name: name.toLowerCase(),
    properties: properties(space < 0 ? "" : info.slice(space + 1), ";"),
    data: line.slice(close + 1),
    line,
  };
}

function properties(text: string, separator: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.trim().split(separator)) {
    const eq = pair.indexOf("=");
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The commands the runner would process, in order (the stop and resume lines included). */
export function runnerCommandsIn(output: string): RunnerCommand[] {
  const registered = new Set(REGISTERED);
  const processed: RunnerCommand[] = [];
  let stopToken: string | null = null;
  for (const line of output.split(/\r\n|\r|\n/)) {
    if (!line.includes("::") && !line.includes("##[")) continue;
    const command = parse(line, registered);
    if (!command) continue;
    if (stopToken !== null) {
      if (command.name === stopToken) {
        registered.delete(stopToken);
        stopToken = null;
        processed.push(command);
      }
      continue;
    }
    if (command.name === "stop-commands") {
      stopToken = command.data.toLowerCase();
      registered.add(stopToken);
    }
    processed.push(command);
  }
  return processed;
}
