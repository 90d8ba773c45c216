// @pi-policy/policy-kernel/guardian: the pure core of guardian-review. Config resolution, the
// deterministic floor, path scoping, the reviewer prompt and verdict, the outcome policy, the denial breaker,
// allow-once grants, wording and status counters. No I/O.
export * from "./action.js";
export * from "./allow-once.js";
export * from "./breaker.js";
export * from "./config.js";
export * from "./floor.js";
export * from "./git-config.js";
export * from "./git-folder.js";
export * from "./path-links.js";
export * from "./paths.js";
export * from "./pi-resources.js";
export * from "./pipeline.js";
export * from "./prompt.js";
export * from "./shell-setup.js";
export * from "./stats.js";
export * from "./transcript.js";
export * from "./verdict.js";
export * from "./wording.js";
