import { describe, expect, it } from "vitest";
import { fenceWorkflowCommands, mayHoldWorkflowCommand } from "../../../src/core/workflow-commands.js";
import { runnerCommandsIn } from "../../helpers/runner-commands.js";

const ATTACKS = [
  "::add-mask::the",
  " \t::error file=src/app.ts,line=1::forged",
  "first line\r::save-state name=checkpoint::{}",
  "\u00a0::set-output name=x::y",
  "::stop-commands::mine\n::warning::inside\n::mine::\n::error::after",
  "text ##[add-mask]word",
  "ends with ##[group]",
];

describe("fenceWorkflowCommands", () => {
  it("leaves a line the runner would not even try as it is, without making a token", () => {
    let made = 0;
    const text = "Agent run 12 started: https://runs.example/12 (a: b, c)";
    expect(mayHoldWorkflowCommand(text)).toBe(false);
    expect(fenceWorkflowCommands(text, () => `t${++made}`)).toBe(text);
    expect(made).toBe(0);
  });

  it.each(ATTACKS)("fences %j: the runner acts on the fence alone", (attack) => {
    expect(runnerCommandsIn(attack).length).toBeGreaterThan(0);
    const printed = fenceWorkflowCommands(attack, () => "3f0e0c9a-5d1b-4b8e-9a63-0c2b7f8e1d44");
    expect(runnerCommandsIn(printed).map((c) => c.name)).toEqual(["stop-commands", "3f0e0c9a-5d1b-4b8e-9a63-0c2b7f8e1d44"]);
    expect(printed).toContain(attack);
  });

  it("lets the Action's own commands run again after the fence", () => {
    const printed = `${fenceWorkflowCommands("::add-mask::x", () => "token-0123456789")}\n::warning::own`;
    expect(runnerCommandsIn(printed).map((c) => c.name)).toEqual(["stop-commands", "token-0123456789", "warning"]);
  });
});
