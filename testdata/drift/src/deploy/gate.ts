import { countRows } from "../actions/count";
import { VERSION } from "../config/version";

// The payload as the consumer believes it is.
type CountPayload = { passed: boolean };

// canDeploy reads the producer's verdict.
export async function canDeploy(rows: number[]): Promise<boolean> {
  const payload = (await countRows(rows)) as unknown as CountPayload;
  return payload.passed === true;
}

// describeRun names the run (for logs).
export async function describeRun(rows: number[]): Promise<string> {
  const payload = await countRows(rows);
  return `v${VERSION}: ${payload.details.count} of ${rows.length} rows`;
}
