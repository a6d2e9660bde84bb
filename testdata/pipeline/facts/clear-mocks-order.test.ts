// FACT 8: the automatic clear of vitest 5 (clearMocks, on by default) runs BEFORE the
// beforeEach hooks, not between them and the test body. So it never removes calls that the
// fixture's setup() or arrange made in beforeEach: an oracle that lets arrange call an
// observed function (here the fixture's seedQueued calls updateRecord) must clear the observed
// mocks itself, AFTER arrange and right before the call under test. (On vitest <= 4,
// clearMocks is off by default and this test holds trivially.)
import { beforeEach, expect, it, vi } from "vitest";

const observed = vi.fn();

beforeEach(() => {
  observed(); // stands for arrange() calling an observed function
});

it("calls made in beforeEach are still recorded in the test body", () => {
  expect(observed).toHaveBeenCalledTimes(1);
});
