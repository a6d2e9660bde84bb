// Reached as "@shared/strings" (paths wildcard).
export const pad = (text: string, width: number): string => text.padStart(width, " ");

export function label(key: string): string {
  return pad(key.toUpperCase(), 12);
}

// Exported under another name by a local export list: the function is exported,
// and its id keeps the declared name (strings.ts#center).
function center(text: string, width: number): string {
  return pad(text, Math.floor((width + text.length) / 2)).padEnd(width, " ");
}
export { center as centered };
