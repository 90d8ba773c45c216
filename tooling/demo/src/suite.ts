// The suite session: one scripted, realistic coding session run twice in real Pi sessions, stock and with the
// pi-policy extensions, so every turn can be compared side by side.
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import {
	callTool,
	createHarness,
	type Harness,
	type HarnessOptions,
	type ModelRequest,
	realText,
} from "@pi-policy/pi-harness";
import contextShuntDefault from "../../../packages/context-shunt/src/index.ts";
import delegationPolicy from "../../../packages/delegation-policy/src/index.ts";
import explorationGuard from "../../../packages/exploration-guard/src/index.ts";
import { createGuardianReview } from "../../../packages/guardian-review/src/index.ts";
import outputMinimizer from "../../../packages/output-minimizer/src/index.ts";
import { createStockSubagent } from "../../../packages/output-minimizer/test/support/stock-subagent.ts";
import { withSandboxEnv } from "./sandbox.ts";
import { demoWorkspace } from "./scenario.ts";

/** The five extensions, by package folder name, in the load order the READMEs advise (guardian last). */
export const SUITE_EXTENSIONS = [
	"delegation-policy",
	"exploration-guard",
	"output-minimizer",
	"context-shunt",
	"guardian-review",
] as const;
export type SuiteExtension = (typeof SUITE_EXTENSIONS)[number];

const REVIEWER_MODEL = "faux-reviewer";

/** The user's task in the suite session. */
export const SUITE_TASK = "The retry logic sometimes loops forever after compaction. Find the cause and fix it.";

/** What the scripted agent does, in order, for the demo's header. */
export const SUITE_SCRIPT = [
	"grep and find over the whole repo, ls, a read of a large source file, a re-read of its first",
	"40 lines, more broad searches, a delegated survey (a 45 KB subagent answer), a 3,000-line test",
	"log, `git push --force`, a version bump with edit, a cat, and a final answer.",
];
const BIG_FILE = "src/core/agent-session.ts";
const LONG_LOG = 'for i in $(seq 1 3000); do echo "test $i: retry loop ok"; done; echo "3 suites, 3000 tests passed"';

/** Each extension's global config for the suite session. */
export const SUITE_CONFIG: Record<SuiteExtension, unknown> = {
	"delegation-policy": {
		version: 1,
		intensity: "normal",
		roles: {
			small: { provider: "faux", model: "faux-small" },
			medium: { provider: "faux", model: "faux-1" },
			large: { provider: "faux", model: "faux-large" },
		},
	},
	"exploration-guard": { mode: "block" },
	"output-minimizer": { mode: "reference" },
	"context-shunt": { mode: "enforce" },
	"guardian-review": {
		mode: "enforce",
		reviewer: { model: `faux/${REVIEWER_MODEL}`, fallbackToSessionModel: false, timeoutMs: 60_000 },
	},
};

/** The faux models the suite config names: the agent, the delegation roles and the guardian reviewer. */
export const SUITE_MODELS = [
	{ id: "faux-1" },
	{ id: "faux-small" },
	{ id: "faux-large", reasoning: true },
	{ id: REVIEWER_MODEL },
];

/** Per-request counts of what the extensions did, read from their audit entries. */
export interface TurnEvents {
	nudges: number;
	blocks: number;
	referenced: number;
	preserved: number;
	recovered: number;
	guardian: Record<string, number>;
}

/** One agent request of a run. */
export interface SuiteTurn {
	turn: number;
	bytes: number;
	policyBlock: boolean;
	events: TurnEvents;
}

/** What one run of the suite session sent the model, turn by turn. */
export interface SuiteRun {
	label: string;
	extensions: SuiteExtension[];
	turns: SuiteTurn[];
	reviewerCalls: number;
	/** Bytes the guardian's reviewer model was sent, over all its requests. */
	reviewerBytes: number;
	totals: TurnEvents & { bytes: number; lastBytes: number; policyBlocks: number };
}

function emptyEvents(): TurnEvents {
	return { nudges: 0, blocks: 0, referenced: 0, preserved: 0, recovered: 0, guardian: {} };
}

interface AuditLike {
	ext?: string;
	event?: string;
	category?: string;
	counters?: Record<string, number>;
}

/** Adds the meaning of one audit entry to a tally. */
export function tallyAuditEntry(events: TurnEvents, entry: AuditLike): void {
	if (entry.ext === "exploration-guard") {
		if (entry.event === "warned") events.nudges += 1;
		if (entry.event === "blocked") events.blocks += 1;
	} else if (entry.ext === "output-minimizer" && entry.event === "minimized") {
		events.referenced += entry.counters?.outputs ?? 1;
	} else if (entry.ext === "context-shunt") {
		if (entry.event === "bounded") events.preserved += 1;
		if (entry.event === "blocked") events.blocks += 1;
		if (entry.event === "recovered") events.recovered += 1;
	} else if (entry.ext === "guardian-review" && (entry.event === "allowed" || entry.event === "denied")) {
		const key = `${entry.category ?? "?"} ${entry.event === "allowed" ? "allow" : "deny"}`;
		events.guardian[key] = (events.guardian[key] ?? 0) + 1;
	}
}

function lastArtifactId(request: ModelRequest): string | undefined {
	return JSON.stringify(request.messages)
		.match(/csa_[0-9a-f]{24}/g)
		?.at(-1);
}

/** The agent's turns. Functions adapt to the tools the model was offered, as a real model would. */
function agentSteps(): Array<AssistantMessage | string | ((request: ModelRequest) => AssistantMessage | string)> {
	return [
		callTool("grep", { pattern: "retry" }),
		callTool("find", { pattern: "*.ts" }),
		callTool("bash", { command: "ls -la src/core" }),
		callTool("read", { path: BIG_FILE }),
		(request) => {
			const artifactId = lastArtifactId(request);
			return artifactId && request.toolNames.includes("context_shunt_recover")
				? callTool("context_shunt_recover", { artifactId, lineOffset: 1, lineLimit: 40 })
				: callTool("read", { path: BIG_FILE, offset: 1, limit: 40 });
		},
		// Every match (134, under the tool's byte cap): with the default 100, ripgrep's parallel walk picks which 100.
		callTool("grep", { pattern: "compaction", limit: 200 }),
		callTool("ls", {}),
		callTool("subagent", { agent: "scout", task: "Survey where retries and compaction interact.", async: false }),
		callTool("bash", { command: LONG_LOG }),
		callTool("bash", { command: "git push --force origin main" }),
		callTool("edit", {
			path: "package.json",
			edits: [{ oldText: '"version": "1.0.0"', newText: '"version": "1.0.1"' }],
		}),
		callTool("bash", { command: "cat package.json" }),
		"The retry loop re-enters after an overflow compaction; I bumped the patch version and the tests pass.",
	];
}

/** The reviewer's verdict for the calls sent to review (the long test loop and the subagent delegation). */
function reviewerVerdict(): AssistantMessage {
	return callTool("submit_verdict", {
		outcome: "allow",
		risk_level: "low",
		user_authorization: "medium",
		rationale: "A local loop that only prints test lines; no writes, no network.",
	});
}

function extensionFactory(name: SuiteExtension, home: string): InlineExtension {
	switch (name) {
		case "delegation-policy":
			return delegationPolicy;
		case "exploration-guard":
			return explorationGuard;
		case "output-minimizer":
			return outputMinimizer;
		case "context-shunt":
			return contextShuntDefault;
		case "guardian-review":
			return createGuardianReview({ home });
	}
}

/** Run the suite session once, with the given extensions (none for stock Pi). */
export async function runSuiteSession(extensions: SuiteExtension[], label: string): Promise<SuiteRun> {
	return withSandboxEnv((env) => runSuiteSessionIn(env, extensions, label));
}

async function runSuiteSessionIn(
	env: Record<string, string>,
	extensions: SuiteExtension[],
	label: string,
): Promise<SuiteRun> {
	const stockSubagent = createStockSubagent();
	stockSubagent.queue({ kind: "single", child: { agent: "scout", output: realText(45_000, 4_000) } });
	const agent = agentSteps();
	const auditMarks: number[] = [];
	let harness: Harness | undefined;
	const dispatcher = (request: ModelRequest): AssistantMessage | string => {
		if (request.modelId === REVIEWER_MODEL) return reviewerVerdict();
		auditMarks.push(harness?.entries("pi-policy.audit").length ?? 0);
		const step = agent.shift() ?? "Done.";
		return typeof step === "function" ? step(request) : step;
	};
	const options: HarnessOptions = {
		extensions: [stockSubagent.extension, ...extensions.map((name) => extensionFactory(name, env.HOME ?? ""))],
		tools: ["read", "bash", "edit", "write", "grep", "find", "ls", "subagent", "context_shunt_recover"],
		files: demoWorkspace(),
		config: Object.fromEntries(extensions.map((name) => [name, SUITE_CONFIG[name]])),
		models: SUITE_MODELS,
		env,
		fallbackReply: dispatcher,
	};
	harness = await createHarness(options);
	try {
		await harness.prompt(SUITE_TASK);
		const audit = harness.entries<AuditLike>("pi-policy.audit");
		const agentRequests = harness.requests.filter((request) => request.modelId !== REVIEWER_MODEL);
		const turns: SuiteTurn[] = agentRequests.map((request, index) => {
			const events = emptyEvents();
			// Entries written since the previous agent request belong to this turn.
			for (const entry of audit.slice(auditMarks[index - 1] ?? 0, auditMarks[index] ?? audit.length)) {
				tallyAuditEntry(events, entry);
			}
			return {
				turn: index + 1,
				bytes: harness?.requestBytes(request) ?? 0,
				policyBlock: harness?.requestText(request).includes("<delegation_policy>") ?? false,
				events,
			};
		});
		const totals = { ...emptyEvents(), bytes: 0, lastBytes: turns.at(-1)?.bytes ?? 0, policyBlocks: 0 };
		for (const entry of audit) tallyAuditEntry(totals, entry);
		for (const turn of turns) {
			totals.bytes += turn.bytes;
			if (turn.policyBlock) totals.policyBlocks += 1;
		}
		return {
			label,
			extensions,
			turns,
			reviewerCalls: harness.requests.length - agentRequests.length,
			reviewerBytes: harness.requests
				.filter((request) => request.modelId === REVIEWER_MODEL)
				.reduce((sum, request) => sum + (harness?.requestBytes(request) ?? 0), 0),
			totals,
		};
	} finally {
		await harness.dispose();
	}
}
