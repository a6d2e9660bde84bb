// An explicit CommonJS module (.cts).
export function checksum(text: string): number {
  let sum = 0;
  for (const ch of text) sum = (sum + ch.charCodeAt(0)) % 65521;
  return sum;
}
