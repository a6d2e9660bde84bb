// Calls work() through its import binding at CALL time.
import { work } from "./stateful";

export function useWork(): number {
  return work();
}
