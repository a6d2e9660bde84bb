import type { Either, Loaded, Pending, User, Cycle } from "./types";

export function fetchUser(id: number): Loaded {
  return Promise.resolve({ name: String(id) });
}
export function pendingUser(id: number): Pending<User> {
  return Promise.resolve({ name: String(id) });
}
export function eitherUser(id: number): Either {
  return { name: String(id) };
}
export function cycle(): Cycle {
  return undefined as never;
}
