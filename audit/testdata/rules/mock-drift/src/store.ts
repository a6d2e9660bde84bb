export function load(id: number): { text: string } {
  return { text: String(id) };
}

export async function save(id: number): Promise<number> {
  return id;
}
