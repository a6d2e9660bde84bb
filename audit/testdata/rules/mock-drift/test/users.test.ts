import { expect, it, vi } from "vitest";
import { fetchUser } from "../src/users";

vi.mock("../src/users", () => ({
  fetchUser: vi.fn(() => ({ name: "a" })), // want "async"
  pendingUser: vi.fn(() => ({ name: "b" })), // want "async"
  eitherUser: vi.fn(() => ({ name: "c" })),
  cycle: vi.fn(() => 1),
}));

it("reads a user", async () => {
  expect((await fetchUser(1)).name).toBe("a");
});
