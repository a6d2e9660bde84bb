import { finalizeOrder } from "./orders";

export function route(id: number): number {
  return finalizeOrder(id);
}

export function unused(): number { // want "unused: no test runs it"
  return 0;
}
