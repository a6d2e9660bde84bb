import * as m from "./model";
import { makeParent, untyped, pick, overloadedMake, Factory } from "./model";
const z = { ...m };
export function roots() {
  makeParent().make().run();
  m.makeParent().child.run();
  z.makeParent().make();
  Factory.make().run();
  untyped().run();
  pick<m.Child>().run();
  pick().run();
  overloadedMake("a").run();
}
