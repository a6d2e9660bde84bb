export { work } from "./callee";
