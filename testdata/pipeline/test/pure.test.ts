import { describe, expect, it } from "vitest";
import { buildSummary } from "../src/reports/summary";
import { extractMetadata } from "../src/server/metadata";
import { resolveSettings } from "../src/server/settings";
import { selectTargets } from "../src/server/targets";

describe("stateless services", () => {
  it("selectTargets", () => {
    expect(selectTargets({ name: "ab", tags: [] })).toEqual(["index:default"]);
    expect(selectTargets({ name: "abcd", tags: ["x"] })).toEqual(["index:x", "search"]);
  });
  it("resolveSettings", () => {
    expect(resolveSettings(["a", "b", "c"])).toEqual({ profile: "bulk", rounds: 1500 });
  });
  it("extractMetadata", () => {
    expect(extractMetadata({ name: "Hello World", tags: [" B", "a", "b"] })).toEqual({
      slug: "hello-world",
      tags: ["a", "b"],
    });
    expect(extractMetadata({ name: "x", tags: [" B"] }, { raw: true }).tags).toEqual([" B"]);
  });
  it("buildSummary", () => {
    const s = buildSummary([{ status: "new" }, { status: "new" }], { compact: true });
    expect(s).toEqual({ total: 2, counts: { new: 2 }, chart: null });
    expect(buildSummary([{ status: "new" }]).chart).toBe("new        #");
  });
});
