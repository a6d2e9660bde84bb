import { Parent, Child, Sub } from "./model";
export function casts(x: unknown, p: Parent) {
  (x as Parent).make().run();
  (x as unknown as Child).run();
  (p as any).run();
  (p.child as Child | Sub).run();
}
