// @pi-policy/policy-kernel: pure decision functions and the shared audit and event schema. No I/O, no Pi runtime.
// The host adapters (file loading, audit writer, handler wrapper) live in the separate "./host" subpath.
export * from "./audit.js";
export * from "./config.js";
export * from "./decision.js";
export * from "./events.js";
export * from "./json.js";
export * from "./text.js";
