export function buildConfig(): { url: string } { // want "buildConfig: no test runs it"
  return { url: "x" };
}
