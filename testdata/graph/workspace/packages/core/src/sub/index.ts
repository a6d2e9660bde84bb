// @acme/core/sub (exports "./sub").
type Listener = (event: string) => void;
const listeners: Listener[] = [];

export function subscribe(listener: Listener): void {
  listeners.push(listener);
}

export function emit(event: string): void {
  listeners.forEach((listener) => listener(event));
}
