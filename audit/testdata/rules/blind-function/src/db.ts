export function connect(): string { // want "connect: no test runs it"
  return "real";
}
