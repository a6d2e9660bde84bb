// The HTTP layer: parses requests, calls the service, shapes responses.
import { OrderService } from "./service";

export interface Request {
  params: Record<string, string>;
  query: Record<string, string | undefined>;
}

export interface Response {
  status: number;
  body: unknown;
}

export class OrderController {
  constructor(private readonly service: OrderService) {}

  async finalize(req: Request): Promise<Response> {
    const id = Number(req.params["id"]);
    if (!Number.isInteger(id)) return { status: 400, body: { error: "bad id" } };
    const result = await this.service.finalize(id, { skipQuote: req.query["quote"] === "skip" });
    return { status: 200, body: { id: result.order.id, quoted: result.quoted } };
  }

  async cancel(req: Request): Promise<Response> {
    const id = Number(req.params["id"]);
    if (!Number.isInteger(id)) return { status: 400, body: { error: "bad id" } };
    const order = await this.service.cancel(id, { silent: req.query["silent"] === "true" });
    return { status: 200, body: { id: order.id, status: order.status } };
  }
}
