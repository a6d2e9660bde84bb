export function finalizeOrder(id: number): number { // want "finalizeOrder: no test runs it"
  return id;
}
