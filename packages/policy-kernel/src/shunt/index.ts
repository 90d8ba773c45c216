// @pi-policy/policy-kernel/shunt: the pure decisions of context-shunt (limits, admission, settlement, quota,
// exceptions, per-tool policy, recovery with ranges, patterns and JSON pointers, the aging plan, the tool parameter
// schemas, the reader contract, modes, wording and status, and the session reducers that return effects). No I/O;
// the shell performs the effects and does the files, timers and calls.
export * from "./admission.js";
export * from "./aging.js";
export * from "./block.js";
export * from "./codes.js";
export * from "./config.js";
export * from "./constants.js";
export * from "./exceptions.js";
export * from "./json.js";
export * from "./ledger.js";
export * from "./limits.js";
export * from "./mode.js";
export * from "./reader.js";
export * from "./receipt.js";
export * from "./recovery.js";
export * from "./search.js";
export * from "./session.js";
export * from "./settlement.js";
export * from "./status.js";
export * from "./tool-params.js";
export * from "./tool-policy.js";
