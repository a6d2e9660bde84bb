export { finalizeOrder } from "./checkout";
