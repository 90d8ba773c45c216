// @pi-policy/policy-kernel/minimize: pure decisions of output-minimizer (reference-first delivery of delegated
// output): config, planning a tool result, receipts and bounded fallbacks, details projection, notify rewrite.
export * from "./config.js";
export * from "./details.js";
export * from "./format.js";
export * from "./notify.js";
export * from "./plan.js";
export * from "./receipt.js";
export * from "./status.js";
