// Processing settings derived from the targets. Stateless.

export interface Settings {
  profile: "standard" | "bulk";
  rounds: number;
}

export function resolveSettings(targets: readonly string[]): Settings {
  return {
    profile: targets.length > 2 ? "bulk" : "standard",
    rounds: 500 * Math.max(1, targets.length),
  };
}
