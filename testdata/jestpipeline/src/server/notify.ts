// Operator notifications (an outbox the ops channel drains).

const outbox: string[] = [];

export function notify(message: string): void {
  outbox.push(message);
}

export function drainOutbox(): string[] {
  return outbox.splice(0, outbox.length);
}
