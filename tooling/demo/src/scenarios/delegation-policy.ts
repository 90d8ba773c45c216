// delegation-policy: the block the model receives at each intensity, and D:ERR (no block) when a role's model
// is unavailable, in a real session.
import type { Harness, ModelRequest, ScriptStep } from "@pi-policy/pi-harness";
import { callTool } from "@pi-policy/pi-harness";
import delegationPolicy from "../../../../packages/delegation-policy/src/index.ts";
import type { DemoScenario } from "../scenario.ts";

const INTENSITY_STEPS: Array<{ command?: string; label: string }> = [
	{ label: "global default: normal" },
	{ command: "/delegate aggressive", label: "/delegate aggressive" },
	{ command: "/delegate orchestrator", label: "/delegate orchestrator" },
	{ command: "/delegate role medium faux/faux-gone", label: "/delegate role medium faux/faux-gone (unavailable)" },
	{ command: "/delegate role medium default", label: "/delegate role medium default (fixed)" },
	{ command: "/delegate off", label: "/delegate off" },
];

function policySection(request: ModelRequest | undefined): string | undefined {
	const head = request?.messages[0] as unknown as { role?: string; sections?: Record<string, string | null> };
	if (head?.role !== "system") return undefined;
	return head.sections?.delegation_policy ?? undefined;
}

const labels: string[] = [];
const footers: string[] = [];
const diagnostics: string[] = [];

const scenario: DemoScenario = {
	id: "delegation-policy",
	title: "delegation-policy: one validated policy block per request",
	summary:
		"The same question at each intensity: the block the model sees changes with /delegate, and an unavailable role model fails closed (D:ERR, no block).",
	prompt: "Plan the retry-loop fix and tell me who should do which part.",
	extensions: () => [delegationPolicy],
	config: {
		"delegation-policy": {
			version: 1,
			intensity: "normal",
			roles: {
				small: { provider: "faux", model: "faux-small" },
				medium: { provider: "faux", model: "faux-medium" },
				large: { provider: "faux", model: "faux-large" },
			},
			thinking: { large: { level: "high" } },
		},
	},
	harness: {
		models: [
			{ id: "faux-1" },
			{ id: "faux-small", contextWindow: 32000 },
			{ id: "faux-medium", contextWindow: 64000 },
			{ id: "faux-large", reasoning: true, contextWindow: 200000 },
		],
	},
	steps: (): ScriptStep[] =>
		INTENSITY_STEPS.flatMap(() => [callTool("grep", { pattern: "retry" }), "Small surveys, Large designs the fix."]),
	async drive(harness: Harness) {
		labels.length = 0;
		footers.length = 0;
		diagnostics.length = 0;
		for (const step of INTENSITY_STEPS) {
			if (step.command) await harness.command(step.command);
			labels.push(step.label, step.label);
			await harness.prompt("Plan the retry-loop fix and tell me who should do which part.");
			const footer = harness.ui?.statuses.get("delegation-policy") ?? "";
			footers.push(footer);
			if (footer.startsWith("D:ERR")) {
				await harness.command("/delegate status");
				const status = harness.ui?.notifications().at(-1)?.message ?? "";
				diagnostics.push(...status.split("\n").filter((line) => line.startsWith("- error:")));
			}
		}
	},
	narrate(harness: Harness) {
		const lines: string[] = ["What the model received, request by request (D:ERR and off send no block):"];
		const shown = new Set<string>();
		harness.requests.forEach((request, index) => {
			const section = policySection(request);
			const summary = section
				? (section
						.split("\n")
						.find((line) => line.startsWith("Intensity:"))
						?.slice(0, 60) ?? "block")
				: "(no block)";
			lines.push(`  #${index + 1} ${labels[index] ?? ""}: ${summary}`);
			if (section && !shown.has(section)) {
				shown.add(section);
				for (const line of section.split("\n")) lines.push(`      ${line.slice(0, 92)}`);
			}
		});
		lines.push(`Footer after each prompt: ${footers.join(" → ")}`);
		lines.push("Status diagnostics while D:ERR (role, level and model named; nothing injected):");
		for (const line of diagnostics) lines.push(`  ${line}`);
		return lines;
	},
};

export default scenario;
