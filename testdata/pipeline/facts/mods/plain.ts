// An UNMOCKED module with per-instance state (compare with stateful.ts, which is mocked).
import { record } from "./log";

type G = typeof globalThis & { __plainEvals?: number };
const g = globalThis as G;
g.__plainEvals = (g.__plainEvals ?? 0) + 1;
export const instance = g.__plainEvals;
record(`plain evaluated #${instance}`);
