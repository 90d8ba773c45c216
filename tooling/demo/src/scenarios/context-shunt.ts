// context-shunt demo: an oversized read blocked and then granted once by token, a huge bash log turned into a
// receipt and recovered by range, and a question about it answered with citations.
import { callTool, type Harness, type ModelRequest } from "@pi-policy/pi-harness";
import { createContextShunt } from "../../../../packages/context-shunt/src/index.ts";
import type { DemoScenario } from "../scenario.ts";

const READ = { path: "src/core/agent-session.ts", limit: 1000 };
const LOG = "for i in $(seq 1 4000); do echo \"step $i: ok\"; done; echo 'step 4001: FAILED retry budget exhausted'";

function lastArtifactId(request: ModelRequest): string {
	const text = JSON.stringify(request.messages);
	const ids = text.match(/csa_[0-9a-f]{24}/g) ?? [];
	return ids.at(-1) ?? "csa_000000000000000000000000";
}

function toolText(harness: Harness, index: number): string {
	const result = harness.toolResults()[index];
	return result === undefined ? "" : harness.toolResultText(result);
}

const scenario: DemoScenario = {
	id: "context-shunt",
	title: "context-shunt (enforce): block, grant once, receipt, recovery, cited answer",
	summary:
		"An oversized read is blocked before it runs and granted once by the user; a 4,000-line log (Pi keeps its last 2,000 lines) becomes a receipt under 2 KiB; a range comes back byte-identical; a reader answers with citations.",
	prompt: "Find out why the retry budget runs out.",
	extensions: () => [createContextShunt()],
	config: { "context-shunt": { mode: "enforce", reader: { enabled: true, model: "faux/faux-1" } } },
	tools: ["read", "bash", "grep", "find", "ls", "context_shunt_recover", "context_shunt_delegate"],
	steps: () => [
		callTool("read", READ),
		"context-shunt blocked that read. Please run the /context-shunt allow command it names if you want me to read 1000 lines.",
		callTool("read", READ),
		callTool("bash", { command: LOG }),
		(request) =>
			callTool("context_shunt_recover", { artifactId: lastArtifactId(request), lineOffset: 1995, lineLimit: 6 }),
		(request) =>
			callTool("context_shunt_delegate", {
				artifactId: lastArtifactId(request),
				question: "Which step failed, and why?",
				thinking: "off",
			}),
		(request) => {
			const text = JSON.stringify(request.messages);
			const sourceId = /src_[0-9a-f]{16}/.exec(text)?.[0] ?? "src_0000000000000000";
			return JSON.stringify({
				status: "answered",
				answer: "Step 4001 failed: the retry budget was exhausted.",
				citations: [{ sourceId, startLine: 2000, endLine: 2000 }],
			});
		},
		"Step 4001 exhausts the retry budget (line 2000 of the preserved log, which holds the last 2000 lines).",
	],
	async drive(harness) {
		await harness.prompt(this.prompt);
		const token = /cst_[0-9a-f]{12}/.exec(toolText(harness, 0))?.[0] ?? "cst_000000000000";
		await harness.command(`/context-shunt allow ${token} 1000 60000`);
		await harness.prompt("Granted. Go ahead.");
		await harness.command("/context-shunt status");
	},
	narrate(harness) {
		const texts = harness.toolResults().map((r) => harness.toolResultText(r));
		const receipt = texts[2] ?? "";
		const recovered = (harness.toolResults()[3]?.content as Array<{ text?: string }> | undefined)?.[1]?.text ?? "";
		const lines = [
			`read blocked before it ran: ${texts[0]?.startsWith("context-shunt blocked") ? "yes" : "no"}; granted once by token: ${texts[1]?.includes("[") ? "yes" : "no"}`,
			`bash log -> receipt of ${Buffer.byteLength(receipt)} bytes (${/(\d+) bytes, (\d+) lines/.exec(receipt)?.slice(1).join(" bytes, ") ?? "?"} lines preserved)`,
			`recovered lines 1995-2000: ${JSON.stringify(recovered.split("\n").slice(-3))}`,
			`reader answer: ${texts[4] ?? ""}`,
		];
		return lines;
	},
};

export default scenario;
