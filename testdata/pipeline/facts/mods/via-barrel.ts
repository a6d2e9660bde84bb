import { work } from "./barrel";

export function viaBarrel(): string {
  return work();
}
