export function resolveSettings(): { region: string; dryRun: boolean } {
  return { region: "eu-west-1", dryRun: false };
}
