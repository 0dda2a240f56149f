/**
 * One process of the restart benchmark (bench/restart.ts): a service client whose rate budget is
 * kept in a SQLite file the way the embedded App keeps it (or in memory, for the baseline), firing
 * `count` creates at once and printing `created <epoch ms>` as each is answered. With `--stay` it
 * keeps running afterwards, as a server would, until it is killed.
 *
 * `margin ms` is the budget's allowance for latency, in real milliseconds: latency does not shrink with
 * the clock, so a compressed run keeps the allowance it would have at real scale.
 *
 *   node --import tsx bench/lib/restart-child.ts <service url> <token> <org id> <time scale> <margin ms> <sqlite file> <sqlite|memory> <count> [--stay]
 */
import Database from "better-sqlite3";
import { SqliteBudgetLedger } from "../../src/app/store/sqlite-budget.js";
import { AgentRunClient, createInProcessBudget } from "../../src/service/index.js";

const [baseUrl, token, orgId, scale, margin, file, backend, count] = process.argv.slice(2);
const timeScale = Number(scale);
const ledger = backend === "sqlite" ? new SqliteBudgetLedger(new Database(file!)) : undefined;
const budget = createInProcessBudget({ timeScale, marginMs: Number(margin), ...(ledger ? { ledger } : {}) });
const client = new AgentRunClient({ baseUrl: baseUrl!, token: token!, orgId: Number(orgId), timeScale, budget });

await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    client.createRun({ prompt: `restart bench ${process.pid} ${i}` }).then(() => process.stdout.write(`created ${Date.now()}\n`)),
  ),
);
process.stdout.write("done\n");
if (process.argv.includes("--stay")) setInterval(() => undefined, 60_000);
