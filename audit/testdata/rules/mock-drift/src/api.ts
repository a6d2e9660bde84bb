import { load, save } from "./store";

export async function handle(id: number): Promise<string> {
  await save(id);
  return load(id).text;
}
