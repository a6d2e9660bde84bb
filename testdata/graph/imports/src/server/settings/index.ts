import type { Settings } from "../types";

// Reached as `./settings`: directory index probing (settings/index.ts).
export function resolveSettings(region?: string): Settings {
  return { region: region ?? defaultRegion(), dryRun: false };
}

export const defaultRegion = (): string => "eu-west-1";
