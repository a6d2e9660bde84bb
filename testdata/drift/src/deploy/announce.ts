import { notify } from "../actions/notify";

// announce tells the team, and says whether the message went out.
export async function announce(version: string): Promise<boolean> {
  const { sent } = await notify(`deploying ${version}`);
  return sent;
}
