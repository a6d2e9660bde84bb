// A module with per-instance state: each evaluation gets a new instance number.
import { record } from "./log";

let evaluations = (globalThis as { __statefulEvals?: number }).__statefulEvals ?? 0;
evaluations += 1;
(globalThis as { __statefulEvals?: number }).__statefulEvals = evaluations;
export const instance = evaluations;
record(`stateful evaluated #${instance}`);

export function work(): number {
  return instance;
}
