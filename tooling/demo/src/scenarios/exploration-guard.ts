// exploration-guard in block mode: an agent that keeps grepping the whole repository is nudged, then paused, and
// recovers by delegating the survey. The `subagent` tool here is a stand-in (the faux model cannot drive real
// child sessions); the package's loopback test runs the same flow with real pi-subagents.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, contentText, type Harness } from "@pi-policy/pi-harness";
import { Type } from "typebox";
import explorationGuard from "../../../../packages/exploration-guard/src/index.ts";
import type { DemoScenario } from "../scenario.ts";

const SURVEY = "Survey src/ for where retries and compaction interact; report the files and functions involved.";

/** A stand-in delegation tool: returns a short survey summary instead of running a child session. */
function demoSubagent(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "subagent",
		label: "subagent",
		description: "Delegate a task to a child agent and return its final answer.",
		parameters: Type.Object({ agent: Type.Optional(Type.String()), task: Type.Optional(Type.String()) }),
		async execute() {
			const text =
				"scout: retries live in src/core/agent-session.ts (_isRetryableError, auto-retry loop); compaction in " +
				"src/core/compaction/. The loop re-enters after an overflow compaction.";
			return { content: [{ type: "text", text }], details: {} };
		},
	});
}

function auditEvents(harness: Harness): string[] {
	return harness
		.entries<{ ext?: string; event?: string }>("pi-policy.audit")
		.filter((entry) => entry.ext === "exploration-guard")
		.map((entry) => String(entry.event));
}

export const explorationGuardScenario: DemoScenario = {
	id: "exploration-guard",
	title: "exploration-guard (block mode): nudge, pause, recover by delegating",
	summary:
		"Broad greps over the whole repo get one steer nudge at the 2nd, run until the 4th, and the 5th isolated one " +
		"is paused; a delegated survey resets the streak and exploration continues.",
	prompt: "The retry logic sometimes loops forever after compaction. Find the cause.",
	extensions: () => [explorationGuard, demoSubagent],
	config: { "exploration-guard": { mode: "block" } },
	tools: ["read", "bash", "edit", "write", "grep", "find", "ls", "subagent"],
	steps: () => [
		callTool("grep", { pattern: "retry" }),
		callTool("grep", { pattern: "compaction" }),
		callTool("find", { pattern: "*.ts" }),
		callTool("grep", { pattern: "overflow" }),
		callTool("grep", { pattern: "isRetryable" }),
		callTool("subagent", { agent: "scout", task: SURVEY }),
		callTool("grep", { pattern: "_isRetryableError", path: "src/core" }),
		callTool("read", { path: "src/core/agent-session.ts", offset: 1, limit: 80 }),
		"The delegated survey points at the auto-retry loop re-entering after an overflow compaction.",
	],
	afterCommands: ["/exploration-guard status"],
	narrate: (harness) => {
		const results = harness.toolResults();
		const blocked = results.find((result) => result.isError);
		const nudged = harness.session.messages.some(
			(m) => m.role === "user" && contentText(m.content).startsWith("Exploration guard:"),
		);
		return [
			`tool results: ${results.map((r) => `${r.toolName}${r.isError ? " (paused)" : ""}`).join(", ")}`,
			`steer nudge delivered: ${nudged ? "yes, once" : "no"}`,
			`block reason the model saw: ${blocked ? contentText(blocked.content) : "(none)"}`,
			`audit trail (aggregate only): ${auditEvents(harness).join(" → ")}`,
			"the subagent tool here is a stand-in; real pi-subagents delegation is tested through the loopback provider",
		];
	},
};

export default explorationGuardScenario;
