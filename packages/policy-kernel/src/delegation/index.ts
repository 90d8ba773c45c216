// @pi-policy/policy-kernel/delegation: the delegation-policy configuration model and schemas, validation by
// axis against a model catalogue, block rendering and placement, footer and status text, and the session reducer.
export * from "./command.js";
export * from "./config.js";
export * from "./placement.js";
export * from "./render.js";
export * from "./state.js";
export * from "./validate.js";
