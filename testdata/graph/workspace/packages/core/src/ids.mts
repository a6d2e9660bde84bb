// An explicit ES module (.mts).
let last = 0;

export function nextId(): number {
  last += 1;
  return last;
}
