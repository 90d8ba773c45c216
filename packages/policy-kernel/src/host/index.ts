// @pi-policy/policy-kernel/host: the only part of the kernel that touches node: modules or the Pi runtime.
// File loading for config layers, the audit writer, and the fail-open/fail-closed handler wrapper.
export * from "./audit-writer.js";
export * from "./load-config.js";
export * from "./wrap-handler.js";
