// @pi-policy/policy-kernel/host: the only part of the kernel that touches node: modules or the Pi runtime.
// The config lifecycle and its bounded file reads, the audit writer, the fail-open/fail-closed handler wrapper, and
// command answers that reach the user with or without a UI.
export * from "./answer-command.js";
export * from "./audit-writer.js";
export * from "./load-config.js";
export * from "./policy-config.js";
export * from "./read-config-file.js";
export * from "./wrap-handler.js";
