import type { Item } from "./types";
import formatMoney, { slugify, clip, titleCase, escape } from "../lib"; // through 3 barrel levels
import * as lib from "../lib"; // namespace import of a barrel

export function renderItem(item: Item, priceCents: number): string {
  const title = titleCase(clip(item.name, 40)); // default-as-named + aliased re-export
  const slug = slugify(item.name);
  return `<a href="/items/${slug}" title="${escape.attr(title)}">${escape.html(title)} ${formatMoney(priceCents)}</a>`;
}

export function renderTag(tag: string): string {
  return lib.escape.html(lib.slugify(tag)); // namespace member of a namespace re-export
}
