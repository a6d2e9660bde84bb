// Which downstream indexes a record fans out to. Stateless.
import type { RecordRow } from "./repo";

export function selectTargets(record: Pick<RecordRow, "name" | "tags">): string[] {
  const targets = record.tags.length > 0 ? record.tags.map((t) => `index:${t}`) : ["index:default"];
  if (record.name.length > 3) targets.push("search");
  return targets;
}
