/**
 * Outside text (the service's answers, GitHub's, an agent's) printed to a step's log must not be
 * read as a workflow command. The runner (actions/runner, OutputManager and ActionCommand) looks at
 * every line holding `::` or `##[`: a line whose start, after white space, is `::name …::` (the
 * current form), or one holding `##[name …]` anywhere (the old form, still honoured), and only the
 * command's own arguments are escaped by @actions/core: `core.info` prints its text as it is.
 * Such text is fenced between `::stop-commands::<token>` and `::<token>::` (GitHub's documented way
 * to print untrusted output): no command inside runs, whatever the line. Other text is left alone,
 * so an ordinary log line stays one line.
 */

/** Whether the runner would even try to read a command in `text` (its own first test, on each line). */
export function mayHoldWorkflowCommand(text: string): boolean {
  return text.includes("::") || text.includes("##[");
}

/**
 * `text` as it may be printed to the log: fenced when it may hold a command. `newToken` gives an
 * unguessable token (a fresh random one per fence: only it ends the fence); it is called only when
 * a fence is needed.
 */
export function fenceWorkflowCommands(text: string, newToken: () => string): string {
  if (!mayHoldWorkflowCommand(text)) return text;
  const token = newToken();
  return `::stop-commands::${token}\n${text}\n::${token}::`;
}
