// Outgoing mail: an interface the services depend on, and the implementation the app wires.
export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Keeps every mail in an outbox (the app's transport drains it). */
export class OutboxMailer implements Mailer {
  readonly outbox: Mail[] = [];

  async send(mail: Mail): Promise<void> {
    this.outbox.push({ ...mail });
  }
}
