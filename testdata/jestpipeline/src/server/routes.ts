// The HTTP route layer, reduced to plain handler functions (no server needed).
import { processItem } from "@server/index";

export interface RouteRequest {
  params: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
}

export interface RouteResponse {
  status: number;
  body: unknown;
}

/** POST /items/:id/process?skip=true */
export async function handleProcessItem(req: RouteRequest): Promise<RouteResponse> {
  const id = Number(req.params["id"]);
  if (!Number.isInteger(id) || id <= 0) return { status: 400, body: { error: "invalid id" } };
  const body = await processItem(id, { skip: req.query["skip"] === "true" });
  return { status: 200, body };
}
