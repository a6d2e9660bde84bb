export function buildConfig(): { url: string } { // want "buildConfig: no test runs it; imported inside the vi.mock factory at test/geo.test.ts:5"
  return { url: "x" };
}
