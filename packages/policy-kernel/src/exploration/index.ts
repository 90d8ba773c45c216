// @pi-policy/policy-kernel/exploration: the pure core of exploration-guard. Config resolution, the broad-call
// classifier, the bash exploration classifier, the state machine reducer, stable wording and the command parser, and the telemetry gate report.
export * from "./bash.js";
export * from "./classify.js";
export * from "./config.js";
export * from "./gate.js";
export * from "./machine.js";
export * from "./messages.js";
