import { Parent, Factory, shared } from "./model";
export function use(p: Parent) {
  p.make().run();
  p.local().make().run();
  new Parent().make().run();
  Factory.parent().child.run();
  shared.make().run();
}
