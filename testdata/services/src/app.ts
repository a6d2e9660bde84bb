// Wiring: what the application constructs at start-up.
import type { Database } from "sql.js";
import { OutboxMailer } from "./mail/mailer";
import { OrderController } from "./orders/controller";
import { PricingEngine } from "./orders/pricing";
import { OrderRepository } from "./orders/repository";
import { OrderService } from "./orders/service";

export function createApp(db: Database) {
  const mailer = new OutboxMailer();
  const service = new OrderService(db, new OrderRepository(db), mailer, new PricingEngine());
  return { mailer, service, controller: new OrderController(service) };
}
