// Two ways to call `work`: through the import binding at call time (direct), and through a
// reference captured when this module was evaluated (viaHandlers).
import { work } from "./callee";

export const handlers = { run: work };

export function direct(): string {
  return work();
}

export function viaHandlers(): string {
  return handlers.run();
}
