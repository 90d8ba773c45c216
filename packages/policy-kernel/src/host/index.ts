// @pi-policy/policy-kernel/host: the only part of the kernel that touches node: modules or the Pi runtime.
// The config lifecycle and its bounded file reads, the audit writer, and the fail-open/fail-closed handler wrapper.
export * from "./audit-writer.js";
export * from "./load-config.js";
export * from "./policy-config.js";
export * from "./read-config-file.js";
export * from "./wrap-handler.js";
