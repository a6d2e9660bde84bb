// The orders barrel.
export { checkout, type CheckoutResult } from "./checkout";
export { createOrder, getOrder, listEvents, recordEvent, updateOrder, type Line, type OrderRow } from "./repo";
