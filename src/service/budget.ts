/**
 * Client-side rate budgets per API token (spec §8): callers wait for budget instead of drawing a 429.
 * The contract is budget/types.ts, the windows budget/windows.ts, the waiting line both budgets share
 * budget/queue.ts; one process's budget (optionally kept in a ledger) is budget/in-process.ts, the one
 * replicas share over Redis budget/redis.ts.
 */
export {
  PROGRESS_RESERVE,
  READ_PRIORITIES,
  type AcquireOptions,
  type BudgetKind,
  type BudgetLedger,
  type BudgetOptions,
  type BudgetSlot,
  type BudgetUsage,
  type BudgetWindows,
  type RateBudget,
  type ReadPriority,
  type WindowName,
  type WindowSpec,
  type WindowUsage,
} from "./budget/types.js";
export { defaultWindows, progressPoints } from "./budget/windows.js";
export { createInProcessBudget } from "./budget/in-process.js";
export { createRedisBudget, type RedisBudgetClient, type RedisBudgetOptions } from "./budget/redis.js";
