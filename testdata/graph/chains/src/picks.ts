import { Parent } from "./model";
interface Options { onOpen?: () => void; parent: Parent; other(): void }
export class Ws {
  callbacks: Pick<Options, "onOpen" | "parent">;
  rest: Omit<Options, "onOpen">;
  constructor(o: Options) { this.callbacks = o; this.rest = o; }
  go() { this.callbacks.onOpen?.(); this.callbacks.parent.make(); this.rest.other(); }
}
