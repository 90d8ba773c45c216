// @pi-policy/policy-kernel/report: the pure core of policy-report. The `/policy` session view, the streaming
// many-session report with the exploration gate, the OTLP attribute mapping, and the text and HTML renderings.
export * from "./accumulate.js";
export * from "./config.js";
export * from "./gate.js";
export * from "./lines.js";
export * from "./otlp.js";
export * from "./render-html.js";
export * from "./render-text.js";
export * from "./savings.js";
export * from "./session-id.js";
export * from "./session-view.js";
