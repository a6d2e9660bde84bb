export function slugify(text: string): string {
  return truncate(text.toLowerCase().replace(/[^a-z0-9]+/g, "-"), 64);
}

export function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}
