// Unit tests for the guardian pipeline reducer (decision order and effects), tool scopes from config globs and
// tool annotations, the strict verdict, the new protected-path defaults and opt-in trusted commands.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	classifyPath,
	DEFAULT_PROTECTED_PATHS,
	floorContextFor,
	type GuardianEffect,
	type GuardianReviewConfig,
	type GuardianState,
	grantAllowOnce,
	initialGuardianState,
	isReadOnlyToolAction,
	looksLikeLocalPath,
	notePrompt,
	type PendingCall,
	type PipelineStep,
	parseVerdictAnswer,
	parseVerdictText,
	planToolCall,
	resolveGuardianReviewConfig,
	resolveToolScope,
	settleReview,
	settleUserAnswer,
	startTurn,
	type ToolCallFacts,
	type ToolFacts,
	toolArgumentPaths,
	toolNameGlobMatches,
	toolPathArguments,
} from "../src/guardian/index.js";

const HOME = "/home/u";
const CWD = "/work/repo";

function configOf(layer: Record<string, unknown> = {}): GuardianReviewConfig {
	return applyGuardianDefaults({ mode: "enforce", ...layer } as never);
}

function factsFor(
	toolName: string,
	input: unknown,
	options: { config?: GuardianReviewConfig; hash?: string; hasUI?: boolean; now?: number; builtin?: boolean } = {},
): ToolCallFacts {
	const config = options.config ?? configOf();
	return {
		toolName,
		input,
		hash: options.hash ?? `h-${toolName}-${JSON.stringify(input)}`,
		tool: { builtin: options.builtin ?? ["bash", "read", "write", "edit"].includes(toolName) },
		config,
		mode: config.mode,
		floorContext: floorContextFor(config, CWD, HOME),
		now: options.now ?? 1_000,
		hasUI: options.hasUI ?? false,
	};
}

function types(step: PipelineStep): string[] {
	return step.effects.map((effect) => effect.type);
}

function pending(step: PipelineStep): PendingCall {
	if (step.next.kind !== "review") throw new Error(`expected a review, got ${step.next.kind}`);
	return step.next.call;
}

const allowVerdict = {
	ok: true,
	verdict: { outcome: "allow" },
	latencyMs: 20,
	attempts: 1,
	promptTokens: 100,
} as const;
const denyVerdict = {
	ok: true,
	verdict: { outcome: "deny", risk_level: "high" },
	latencyMs: 20,
	attempts: 1,
	promptTokens: 100,
} as const;

describe("planToolCall: the decision order", () => {
	it("the floor decides hard-denies and read-only commands without a review", () => {
		const state = initialGuardianState();
		const denied = planToolCall(state, factsFor("bash", { command: "rm -rf /" }));
		expect(denied.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		expect(denied.effects).toContainEqual(
			expect.objectContaining({ type: "verdict", payload: expect.objectContaining({ source: "floor" }) }),
		);
		const allowed = planToolCall(state, factsFor("bash", { command: "ls" }));
		expect(allowed.next).toEqual({ kind: "done", resolution: { kind: "allow" }, readsOnly: true });
		expect(types(allowed)).toEqual(["audit", "verdict", "freeze-input"]);
	});

	it("hashes a call only when it needs the hash: never out of scope or on a floor allow, once otherwise", () => {
		const hashed: string[] = [];
		const lazy = (toolName: string, input: unknown) => ({
			...factsFor(toolName, input),
			hash: () => {
				hashed.push(`${toolName} ${JSON.stringify(input)}`);
				return `h-${hashed.length}`;
			},
		});
		const state = initialGuardianState();
		expect(planToolCall(state, lazy("read", { path: "a.ts" })).next.kind).toBe("done");
		expect(planToolCall(state, lazy("bash", { command: "ls" })).next.kind).toBe("done");
		expect(hashed).toEqual([]);
		expect(planToolCall(state, lazy("bash", { command: "rm -rf /" })).next).toMatchObject({
			resolution: { kind: "block" },
		});
		const reviewed = pending(planToolCall(state, lazy("bash", { command: "npm publish" })));
		expect(reviewed.hash).toBe("h-2");
		expect(hashed).toEqual(['bash {"command":"rm -rf /"}', 'bash {"command":"npm publish"}']);
	});

	it("sends a risky command to review and shows the review in progress only with a UI", () => {
		const headless = planToolCall(initialGuardianState(), factsFor("bash", { command: "npm publish" }));
		expect(headless.next.kind).toBe("review");
		expect(types(headless)).toEqual([]);
		const withUi = planToolCall(initialGuardianState(), factsFor("bash", { command: "npm publish" }, { hasUI: true }));
		expect(withUi.effects).toEqual([expect.objectContaining({ type: "review-status", status: expect.any(String) })]);
		const settled = settleReview(withUi.state, pending(withUi), allowVerdict);
		expect(settled.effects[0]).toEqual({ type: "review-status", status: undefined, workingMessage: undefined });
		expect(settled.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
	});

	it("reuses a verdict for the identical action within a turn, and not after the turn", () => {
		const facts = factsFor("bash", { command: "npm publish" });
		const first = settleReview(
			initialGuardianState(),
			pending(planToolCall(initialGuardianState(), facts)),
			denyVerdict,
		);
		const again = planToolCall(first.state, facts);
		expect(again.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		expect(again.effects).toContainEqual(
			expect.objectContaining({ type: "verdict", payload: expect.objectContaining({ source: "cache" }) }),
		);
		expect(planToolCall(startTurn(first.state), facts).next.kind).toBe("review");
	});

	it("checks the breaker before allow-once and the cache, and a person's prompt re-arms it", () => {
		let state: GuardianState = initialGuardianState();
		const facts = (n: number) => factsFor("bash", { command: `deploy ${n}` });
		for (let n = 0; n < 3; n++) state = settleReview(state, pending(planToolCall(state, facts(n))), denyVerdict).state;
		expect(state.breaker.tripped).toBe(true);
		const blocked = planToolCall(state, facts(0));
		expect(blocked.effects).toContainEqual(
			expect.objectContaining({ type: "verdict", payload: expect.objectContaining({ source: "breaker" }) }),
		);
		expect(notePrompt(state, true).breaker.tripped).toBe(true);
		expect(planToolCall(notePrompt(state, false), facts(9)).next.kind).toBe("review");
	});

	it("trips the breaker on the third consecutive denial with an abort effect", () => {
		let state: GuardianState = initialGuardianState();
		const effects: GuardianEffect[] = [];
		for (let n = 0; n < 3; n++) {
			const step = settleReview(
				state,
				pending(planToolCall(state, factsFor("bash", { command: `x${n}` }))),
				denyVerdict,
			);
			state = step.state;
			effects.push(...step.effects);
		}
		expect(effects.filter((effect) => effect.type === "abort-turn")).toHaveLength(1);
	});

	it("allow-once consumes a grant for the last denied action once; a floor hard-deny is never eligible", () => {
		const facts = factsFor("bash", { command: "npm publish" }, { now: 10 });
		const denied = settleReview(
			initialGuardianState(),
			pending(planToolCall(initialGuardianState(), facts)),
			denyVerdict,
		);
		const granted = grantAllowOnce(startTurn(denied.state), 20);
		expect(granted.granted).toBe(true);
		const once = planToolCall(granted.state, { ...facts, now: 30 });
		expect(once.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(planToolCall(startTurn(once.state), { ...facts, now: 40 }).next.kind).toBe("review");
		const floorDenied = planToolCall(initialGuardianState(), factsFor("bash", { command: "rm -rf /" }));
		expect(grantAllowOnce(floorDenied.state, 50).granted).toBe(false);
	});

	it("allow-once grants the denial the user saw last: one from the cache, never one before the breaker's (a nineteenth review)", () => {
		const x = factsFor("bash", { command: "touch ~/benign.txt" }, { now: 10 });
		const y = factsFor("bash", { command: "touch ~/RISKY_MARKER" }, { now: 11 });
		let state = settleReview(
			initialGuardianState(),
			pending(planToolCall(initialGuardianState(), x)),
			denyVerdict,
		).state;
		state = settleReview(state, pending(planToolCall(state, y)), denyVerdict).state;
		// X again: denied from the cache, which is the denial the user sees last.
		const cached = planToolCall(state, { ...x, now: 12 });
		expect(cached.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		const granted = grantAllowOnce(startTurn(cached.state), 13);
		expect(granted.granted).toBe(true);
		expect(planToolCall(granted.state, { ...y, now: 14 }).next.kind).toBe("review");
		expect(planToolCall(granted.state, { ...x, now: 14 }).next).toEqual({
			kind: "done",
			resolution: { kind: "allow" },
		});
		// After a breaker denial, nothing is granted.
		let tripped: GuardianState = initialGuardianState();
		for (let n = 0; n < 3; n++) {
			const deploy = factsFor("bash", { command: `deploy ${n}` });
			tripped = settleReview(tripped, pending(planToolCall(tripped, deploy)), denyVerdict).state;
		}
		const breaker = planToolCall(tripped, factsFor("bash", { command: "deploy 9" }));
		expect(grantAllowOnce(breaker.state, 20).granted).toBe(false);
	});

	it("an unavailable review asks the user with a UI and denies as the fallback headless", () => {
		const failure = { ok: false, reason: "timeout", latencyMs: 5000, attempts: 1 } as const;
		const ui = planToolCall(initialGuardianState(), factsFor("bash", { command: "npm publish" }, { hasUI: true }));
		const asked = settleReview(ui.state, pending(ui), failure);
		expect(asked.next).toMatchObject({ kind: "ask-user", failure: "timeout" });
		if (asked.next.kind !== "ask-user") return;
		const no = settleUserAnswer(asked.state, asked.next.call, "timeout", false, 5000);
		expect(no.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		expect(no.effects).toContainEqual({
			type: "notify",
			text: "guardian-review denied a bash call (source: user).",
			level: "warning",
		});
		const yes = settleUserAnswer(asked.state, asked.next.call, "timeout", true, 5000);
		expect(yes.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		const headless = planToolCall(initialGuardianState(), factsFor("bash", { command: "npm publish" }));
		const fallback = settleReview(headless.state, pending(headless), failure);
		expect(fallback.next).toMatchObject({ kind: "done", resolution: { kind: "block" } });
		expect(fallback.state.breaker.consecutive).toBe(0);
	});

	it("every denial notification names its source", () => {
		const floor = planToolCall(initialGuardianState(), factsFor("bash", { command: "rm -rf /" }, { hasUI: true }));
		expect(floor.effects).toContainEqual(
			expect.objectContaining({ type: "notify", text: expect.stringContaining("source: floor rule") }),
		);
		const plan = planToolCall(initialGuardianState(), factsFor("bash", { command: "npm publish" }, { hasUI: true }));
		const reviewer = settleReview(plan.state, pending(plan), denyVerdict);
		expect(reviewer.effects).toContainEqual(
			expect.objectContaining({ type: "notify", text: expect.stringContaining("source: reviewer, risk high") }),
		);
	});

	it("observe mode records but never blocks, freezes or notifies", () => {
		const config = configOf({ mode: "observe" });
		const step = planToolCall(
			initialGuardianState(),
			factsFor("bash", { command: "rm -rf /" }, { config, hasUI: true }),
		);
		expect(step.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(types(step)).not.toContain("notify");
		expect(types(step)).not.toContain("abort-turn");
	});

	it("mode off and out-of-scope tools resolve with no effects", () => {
		const off = planToolCall(
			initialGuardianState(),
			factsFor("bash", { command: "rm -rf /" }, { config: configOf({ mode: "off" }) }),
		);
		expect(off.effects).toEqual([]);
		expect(
			planToolCall(initialGuardianState(), factsFor("powershell", { command: "dir" }, { builtin: true })).effects,
		).toEqual([]);
		const offRead = configOf({ tools: { read: "off" } });
		expect(
			planToolCall(initialGuardianState(), factsFor("read", { path: ".env" }, { config: offRead })).effects,
		).toEqual([]);
	});
});

describe("tool scopes", () => {
	const config = configOf({ tools: { "mcp__github__*": "protected-only", mcp__github__merge: "off" } });

	it("matches tool-name globs in full and linearly", () => {
		expect(toolNameGlobMatches("mcp__github__*", "mcp__github__create_issue")).toBe(true);
		expect(toolNameGlobMatches("mcp__github__*", "mcp__gitlab__x")).toBe(false);
		expect(toolNameGlobMatches("a?c", "abc")).toBe(true);
		expect(toolNameGlobMatches("*a*a*a*a*b", "a".repeat(5000))).toBe(false);
	});

	it("an exact key wins over a glob; a glob applies to the tools it matches", () => {
		expect(resolveToolScope(config, "mcp__github__merge", { builtin: false })).toBe("off");
		expect(resolveToolScope(config, "mcp__github__list", { builtin: false, readOnlyHint: true })).toBe(
			"protected-only",
		);
	});

	it("a destructive hint is reviewed even in a protected-only scope", () => {
		expect(resolveToolScope(config, "mcp__github__delete", { builtin: false, destructiveHint: true })).toBe("always");
	});

	it("tools that are not built in are reviewed unless annotated read-only; built-ins keep their defaults", () => {
		const defaults = configOf();
		expect(resolveToolScope(defaults, "deploy", { builtin: false })).toBe("always");
		expect(resolveToolScope(defaults, "codemode", { builtin: false })).toBe("always");
		expect(resolveToolScope(defaults, "lookup", { builtin: false, readOnlyHint: true })).toBe("off");
		expect(resolveToolScope(defaults, "wipe", { builtin: false, readOnlyHint: true, destructiveHint: true })).toBe(
			"always",
		);
		expect(resolveToolScope(defaults, "read", { builtin: true })).toBe("protected-only");
		expect(resolveToolScope(defaults, "powershell", { builtin: true })).toBe("always");
		expect(resolveToolScope(defaults, "write", { builtin: true })).toBe("outside-workspace");
	});

	it("a read-only tool with a path argument is judged protected-only: a protected path goes to review", () => {
		const defaults = configOf();
		const readOnly = { builtin: false, readOnlyHint: true };
		expect(resolveToolScope(defaults, "mcp__fs__read_text_file", readOnly, { path: "notes.txt" })).toBe(
			"protected-only",
		);
		expect(resolveToolScope(defaults, "mcp__fs__read_multiple_files", readOnly, { paths: ["a"] })).toBe(
			"protected-only",
		);
		expect(resolveToolScope(defaults, "mcp__fs__read_text_file", readOnly, { path: "" })).toBe("off");
		expect(resolveToolScope(defaults, "mcp__fs__search", readOnly, { query: "guardian" })).toBe("off");
		// A value shaped like a path is judged whatever its key: the floor cannot tell a query from a file name.
		expect(resolveToolScope(defaults, "mcp__fs__search", readOnly, { query: ".env" })).toBe("protected-only");
		expect(
			resolveToolScope(configOf({ tools: { "mcp__fs__*": "off" } }), "mcp__fs__read_text_file", readOnly, {
				path: ".env",
			}),
		).toBe("off");
		const state = initialGuardianState();
		const plan = (path: string) =>
			planToolCall(state, { ...factsFor("mcp__fs__read_text_file", { path }), tool: readOnly });
		expect(plan("notes.txt").next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(plan("~/.ssh/id_ed25519").next.kind).toBe("review");
		expect(plan(".env").next.kind).toBe("review");
	});

	it("judges every path a read-only tool names: a protected one among `paths`, or a path list it cannot read, is reviewed", () => {
		const state = initialGuardianState();
		const readOnly = { builtin: false, readOnlyHint: true };
		const plan = (input: Record<string, unknown>) =>
			planToolCall(state, { ...factsFor("mcp__fs__read_multiple_files", input), tool: readOnly }).next;
		expect(plan({ paths: ["notes.txt", "src/a.ts"] })).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(plan({ paths: ["notes.txt", ".env"] }).kind).toBe("review");
		expect(plan({ paths: ["notes.txt", "~/.ssh/id_ed25519"] }).kind).toBe("review");
		expect(plan({ directory: "~/.aws" }).kind).toBe("review");
		expect(plan({ path: "notes.txt", file: ".env.local" }).kind).toBe("review");
		// A list the floor cannot read through is reviewed, never passed unread.
		expect(plan({ paths: ["notes.txt", { path: ".env" }] }).kind).toBe("review");
		expect(plan({ paths: ".env" }).kind).toBe("review");
		expect(plan({ path: [".env"] }).kind).toBe("review");
		expect(plan({ paths: Array.from({ length: 257 }, (_, i) => `f${i}.txt`) }).kind).toBe("review");
	});

	it("judges a read-only tool's path as a server may read it (a sixteenth review, with the real filesystem server)", () => {
		const state = initialGuardianState();
		const readOnly = { builtin: false, readOnlyHint: true };
		const plan = (name: string, input: Record<string, unknown>) =>
			planToolCall(state, { ...factsFor(name, input), tool: readOnly }).next;
		// The filesystem server resolves a relative path against its first allowed directory, often home.
		expect(plan("mcp__fs__read_text_file", { path: ".aws/credentials" }).kind).toBe("review");
		expect(plan("mcp__fs__read_multiple_files", { paths: ["readme.txt", ".config/gh/hosts.yml"] }).kind).toBe("review");
		// It matches names by their NFC form: the Kelvin sign opens `Keychains`.
		expect(plan("mcp__fs__read_text_file", { path: "~/Library/\u212Aeychains/login.keychain-db" }).kind).toBe("review");
		// Its listings walk every folder below a path: outside the workspace they would list `~/.ssh`.
		expect(plan("mcp__fs__directory_tree", { path: "~" }).kind).toBe("review");
		expect(plan("mcp__fs__search_files", { path: "~", pattern: "id_*" }).kind).toBe("review");
		expect(plan("mcp__fs__directory_tree", { path: "src" })).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(plan("mcp__fs__read_text_file", { path: "src/a.ts" })).toEqual({
			kind: "done",
			resolution: { kind: "allow" },
		});
		// An eighteenth review: it opens any entry whose NFC form matches a missing name, a link `cafe\u0301` to
		// `.env` for `caf\u00e9` included, so a non-ASCII path is reviewed; Pi's own read judges its own fallbacks.
		expect(plan("mcp__fs__read_text_file", { path: "caf\u00e9" }).kind).toBe("review");
		expect(plan("mcp__fs__read_multiple_files", { paths: ["notes.txt", "r\u00e9po/config"] }).kind).toBe("review");
		expect(plan("mcp__fs__list_directory", { path: "docs\tx" }).kind).toBe("review");
		expect(plan("read", { path: "caf\u00e9" })).toEqual({ kind: "done", resolution: { kind: "allow" } });
	});

	it("pi-subagents' listing and status actions are read-only; its launches and other actions are reviewed", () => {
		const defaults = configOf();
		const fromPackage = { builtin: false, extensionPackage: "pi-subagents" };
		const scope = (input: unknown, facts: ToolFacts = fromPackage, name = "subagent") =>
			resolveToolScope(defaults, name, facts, input);
		for (const action of ["list", "get", "models", "status", "doctor", "schedule.list"]) {
			expect(isReadOnlyToolAction("subagent", fromPackage, { action })).toBe(true);
			expect(scope({ action })).toBe("off");
		}
		// A status read of a run folder names a path: judged protected-only, like a read-only tool's path.
		expect(scope({ action: "status", dir: "~/.ssh" })).toBe("protected-only");
		for (const input of [
			{ agent: "worker", task: "x" },
			{ action: "resume", id: "r1" },
			{ action: "steer", message: "x" },
			{ action: "delete", agent: "worker" },
			{ action: "schedule.run", id: "s" },
			{ action: "LIST" },
			{ action: ["list"] },
			"list",
		]) {
			expect(scope(input)).toBe("always");
		}
		// Only the package's own tool: another extension's `subagent`, or another tool of the package, is reviewed.
		expect(scope({ action: "list" }, { builtin: false })).toBe("always");
		expect(scope({ action: "list" }, { builtin: false, extensionPackage: "other" })).toBe("always");
		expect(scope({ action: "list" }, fromPackage, "subagent_wait")).toBe("always");
		// A destructive hint or a configured scope still wins.
		expect(scope({ action: "list" }, { ...fromPackage, destructiveHint: true })).toBe("always");
		expect(
			resolveToolScope(configOf({ tools: { subagent: "always" } }), "subagent", fromPackage, { action: "list" }),
		).toBe("always");
	});

	it("toolPathArguments collects every path key in order and flags a value it cannot judge", () => {
		expect(toolPathArguments({ path: "a", paths: ["b", "c"], files: ["d"] })).toEqual(["a", "b", "c", "d"]);
		expect(toolPathArguments({ path: "", paths: [] })).toBeUndefined();
		expect(toolPathArguments({ query: "x" })).toBeUndefined();
		expect(toolPathArguments(["a"])).toBeUndefined();
		expect(toolPathArguments({ file_path: 3 })).toBe("unjudgeable");
		expect(toolPathArguments({ paths: ["a", ""] })).toBe("unjudgeable");
	});

	it("toolPathArguments reads a key by its last word, and file: URLs under a uri or url key", () => {
		expect(
			toolPathArguments({
				repo_path: "a",
				notebookPath: "b",
				targetFile: "c",
				outputDir: "d",
				"working-directory": "e",
				cwd: "f",
				FILE_PATH: "g",
				sourceFiles: ["h"],
				dirs: ["i"],
				workdir: "j",
				subdir: "k",
			}),
		).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]);
		expect(toolPathArguments({ server: "docs", uri: "file:///home/u/.ssh/id_rsa" })).toEqual([
			"file:///home/u/.ssh/id_rsa",
		]);
		expect(toolPathArguments({ resourceUrl: "file:///etc/shadow" })).toEqual(["file:///etc/shadow"]);
		// Other URLs name no local path; keys whose last word only looks alike are not paths.
		expect(toolPathArguments({ server: "docs", uri: "docs://guide/intro" })).toBeUndefined();
		expect(toolPathArguments({ url: "https://example.com/x" })).toBeUndefined();
		expect(toolPathArguments({ profile: "x", fileContent: "y", pathology: "z", artifactId: "a" })).toBeUndefined();
		expect(toolPathArguments({ uri: "file:relative/x" })).toBe("unjudgeable");
		expect(toolPathArguments({ repo_path: { root: "/" } })).toBe("unjudgeable");
		expect(toolPathArguments({ files: Array.from({ length: 257 }, (_, i) => `f${i}`) })).toBe("unjudgeable");
	});

	it("a read-only tool's paths are found at any depth and under any key when shaped like a path", () => {
		const state = initialGuardianState();
		const readOnly = { builtin: false, readOnlyHint: true };
		const plan = (input: Record<string, unknown>, config?: GuardianReviewConfig) =>
			planToolCall(state, { ...factsFor("mcp__files__inspect", input, { config }), tool: readOnly }).next;
		const allowed = { kind: "done", resolution: { kind: "allow" } };
		// Before: keys whose last word is not a path word, and nested objects, were never read.
		expect(plan({ source: "~/.ssh/id_ed25519" }).kind).toBe("review");
		expect(plan({ target: ".env" }).kind).toBe("review");
		expect(plan({ options: { path: "~/.aws/credentials" } }).kind).toBe("review");
		expect(plan({ sources: [{ file: `${HOME}/.netrc` }] }).kind).toBe("review");
		expect(plan({ query: { where: { from: "file:///etc/shadow" } } }).kind).toBe("review");
		expect(plan({ source: "@~/.ssh/id_rsa" }).kind).toBe("review");
		// Values shaped like an ordinary path, or not shaped like one, stay allowed.
		expect(plan({ source: "src/app.ts", target: "./docs/x.md" })).toEqual(allowed);
		expect(plan({ word: "guardian", topic: "read .env files safely" })).toEqual(allowed);
		expect(plan({ url: "https://example.com/.env", mime: "text/plain" })).toEqual(allowed);
		expect(plan({ options: { depth: 2, path: "src" } })).toEqual(allowed);
		// Nesting deeper than the floor reads, or too many paths, is reviewed.
		let deep: Record<string, unknown> = { leaf: "x" };
		for (let i = 0; i < 9; i++) deep = { next: deep };
		expect(plan(deep).kind).toBe("review");
		expect(plan({ items: Array.from({ length: 257 }, (_, i) => `dir/f${i}`) }).kind).toBe("review");
		// A tool configured with a scope keeps its rule: no path key means review; a shaped protected value is reviewed.
		const configured = configOf({ tools: { "mcp__files__*": "protected-only" } });
		expect(plan({ source: "src/app.ts" }, configured).kind).toBe("review");
		expect(plan({ path: "src/app.ts", source: "~/.ssh/id_rsa" }, configured).kind).toBe("review");
		expect(plan({ path: "src/app.ts", source: "src/b.ts" }, configured)).toEqual(allowed);
	});

	it("toolArgumentPaths splits named paths from path-shaped values; built-in tools are judged by their path keys", () => {
		expect(
			toolArgumentPaths({ path: "a", source: "/b", options: { dir: "c", note: "d e" }, list: [{ file: "f" }] }),
		).toEqual({ named: ["a", "c", "f"], shaped: ["/b"] });
		expect(toolArgumentPaths("x")).toEqual({ named: [], shaped: [] });
		for (const value of ["/etc/passwd", "~", "~/x", "./a", "../a", ".env", ".ssh/id_rsa", "a/b", "file:///x", "@.env"])
			expect(looksLikeLocalPath(value), value).toBe(true);
		for (const value of [
			"",
			"word",
			"two words/here",
			"https://x/y",
			"docs://a/b",
			"mailto:a@b",
			"a".repeat(5000),
			"x\n/y",
		])
			expect(looksLikeLocalPath(value), value).toBe(false);
		// The write tool's content is not a path, whatever its shape.
		const state = initialGuardianState();
		expect(planToolCall(state, factsFor("write", { path: "notes.md", content: "~/.ssh/id_rsa" })).next).toEqual({
			kind: "done",
			resolution: { kind: "allow" },
		});
	});

	it("a read-only tool's file: URI is judged like a path: a protected one is reviewed, another URI is out of scope", () => {
		const state = initialGuardianState();
		const resource = (uri: string) =>
			planToolCall(state, {
				...factsFor("read_mcp_resource", { server: "fs", uri }),
				tool: { builtin: false, readOnlyHint: true },
			}).next;
		expect(resource(`file://${HOME}/.ssh/id_ed25519`).kind).toBe("review");
		expect(resource("docs://guide/intro")).toEqual({ kind: "done", resolution: { kind: "allow" } });
		const gitStatus = planToolCall(state, {
			...factsFor("mcp__git__git_show", { repo_path: `${HOME}/.ssh`, revision: "HEAD" }),
			tool: { builtin: false, readOnlyHint: true },
		});
		expect(gitStatus.next.kind).toBe("review");
	});

	it("an unannotated extension tool goes to review; a read-only one is out of scope", () => {
		const state = initialGuardianState();
		expect(planToolCall(state, factsFor("deploy", { target: "prod" })).next.kind).toBe("review");
		const readOnly = planToolCall(state, {
			...factsFor("lookup", { q: "x" }),
			tool: { builtin: false, readOnlyHint: true },
		});
		expect(readOnly.next).toEqual({ kind: "done", resolution: { kind: "allow" } });
		expect(readOnly.effects).toEqual([]);
	});

	it("a project may raise a glob scope only to always, and may not add trusted commands", () => {
		const resolved = resolveGuardianReviewConfig(
			{ tools: { "mcp__*": "protected-only" }, trustedCommands: ["pytest"] },
			{ tools: { "mcp__*": "always", "deploy*": "off", ls: "always" }, trustedCommands: ["python", "bash"] },
		);
		expect(resolved.ok).toBe(true);
		if (!resolved.ok) return;
		expect(resolved.value.config.tools["mcp__*"]).toBe("always");
		expect(Object.hasOwn(resolved.value.config.tools, "deploy*")).toBe(false);
		expect(resolved.value.config.tools.ls).toBe("always");
		expect(resolved.value.config.trustedCommands).toEqual(["pytest"]);
		const projectOnly = resolveGuardianReviewConfig(undefined, { trustedCommands: ["make"] });
		expect(projectOnly.ok && projectOnly.value.config.trustedCommands).toEqual([]);
	});
});

describe("protected-path defaults", () => {
	it.each([
		"~/.bash_history",
		"~/.zsh_history",
		"~/.netrc",
		"~/.npmrc",
		"~/.pypirc",
		"~/.docker/config.json",
		"~/.kube/config",
		"~/.gnupg/private-keys-v1.d/x.key",
		"~/.config/gcloud/credentials.db",
		"~/.azure/accessTokens.json",
		"/etc/shadow",
		// Private keys, key stores and credential files wherever they lie.
		"deploy/tls/server.key",
		"android/app/upload.keystore",
		"certs/client.p12",
		"certs/client.pfx",
		"config/truststore.jks",
		"~/keys/prod.ppk",
		"~/Passwords.kdbx",
		".npmrc",
		"packages/web/.npmrc",
		".netrc",
		"_netrc",
		".git-credentials",
		"infra/terraform.tfstate",
		"infra/terraform.tfstate.backup",
		"~/.pgpass",
		"~/.my.cnf",
		"~/.s3cfg",
		"~/.vault-token",
		// Tools' credential stores in the home directory.
		"~/.cargo/credentials.toml",
		"~/.gem/credentials",
		"~/.config/hub",
		"~/.terraform.d/credentials.tfrc.json",
		// An eighteenth review.
		"~/.terraformrc",
		"~/.config/git/credentials",
		"~/.config/containers/auth.json",
		"~/.config/glab-cli/config.yml",
		"~/.m2/settings.xml",
		"~/.gradle/gradle.properties",
		"~/.config/rclone/rclone.conf",
		"~/.composer/auth.json",
		"~/.dbt/profiles.yml",
		"~/.cache/huggingface/token",
		"~/.config/sops/age/keys.txt",
		"~/.password-store/email/work.gpg",
		"~/.local/share/keyrings/login.keyring",
		"~/.codex/auth.json",
		"~/.claude/.credentials.json",
		"~/.gemini/oauth_creds.json",
		"~/.config/github-copilot/apps.json",
		"~/.config/google-chrome/Default/Login Data",
		"~/.mozilla/firefox/abc.default/logins.json",
		"~/Library/Application Support/Google/Chrome/Default/Cookies",
		// A twenty-third review: where real tools write credentials and histories by default.
		"~/.local/share/com.vercel.cli/auth.json",
		"~/.config/netlify/config.json",
		"~/.config/.wrangler/config/default.toml",
		"~/.local/share/opencode/auth.json",
		"~/.local/share/uv/credentials/credentials.toml",
		"~/.cache/huggingface/stored_tokens",
		"~/.config/configstore/firebase-tools.json",
		"~/.config/helm/registry/config.json",
		"~/.kube/cache/oidc-login/abc",
		"~/.zhistory",
		"~/.zsh_sessions/1.history",
		"~/.local/share/powershell/PSReadLine/ConsoleHost_history.txt",
		"~/.sqlite_history",
		"~/.local/state/lesshst",
		"~/.viminfo",
		"/tmp/krb5cc_0",
		"~/.Xauthority",
		"~/.mylogin.cnf",
		".vagrant/machines/default/virtualbox/private_key",
		"client.ovpn",
		"token.json",
		".Rhistory",
		".dev.vars",
		// A twenty-fourth review: snap and Flatpak browser profiles, other browsers, mail and chat clients, histories.
		"~/snap/firefox/common/.mozilla/firefox/abc.default/logins.json",
		"~/.var/app/org.mozilla.firefox/.mozilla/firefox/abc/cookies.sqlite",
		"~/snap/chromium/common/chromium/Default/Login Data",
		"~/.config/microsoft-edge/Default/Cookies",
		"~/.config/vivaldi/Default/Cookies",
		"~/.thunderbird/abc.default/logins.json",
		"~/.purple/accounts.xml",
		"~/.config/filezilla/sitemanager.xml",
		"~/.config/Bitwarden CLI/data.json",
		"~/.continue/config.json",
		"~/.histfile",
		"~/.ipython/profile_default/history.sqlite",
		"~/.local/state/nvim/shada/main.shada",
		"~/.octave_hist",
	])("%s is protected", (path) => {
		expect(classifyPath(path, { cwd: CWD, home: HOME, protectedPaths: DEFAULT_PROTECTED_PATHS })).toBe("protected");
	});

	it("leaves ordinary workspace files alone", () => {
		for (const path of ["src/history.ts", "docs/history.md", "tests/test_history.py", "data/price_history.csv"])
			expect(classifyPath(path, { cwd: CWD, home: HOME, protectedPaths: DEFAULT_PROTECTED_PATHS })).toBe("workspace");
	});

	it.each([
		["src/keys.py", "workspace"],
		["config/keymap.json", "workspace"],
		["docs/credentials.md", "workspace"],
		["src/token.ts", "workspace"],
		[".npmrc.example", "workspace"],
		// Sources and caches next to a tool's credentials stay readable (outside the workspace, not protected).
		["~/.cargo/registry/src/index.crates.io-1/serde-1.0.0/src/lib.rs", "outside"],
		["~/.m2/repository/org/x/x-1.pom", "outside"],
		["~/.gradle/caches/modules-2/files-2.1/x.jar", "outside"],
		["~/.cache/huggingface/hub/models--x/config.json", "outside"],
		["~/.config/gh-dash/config.yml", "outside"],
		["~/.claude/settings.json", "outside"],
	])("%s stays %s", (path, expected) => {
		expect(classifyPath(path, { cwd: CWD, home: HOME, protectedPaths: DEFAULT_PROTECTED_PATHS })).toBe(expected);
	});

	it("trusted commands are empty by default", () => {
		expect(configOf().trustedCommands).toEqual([]);
	});
});

describe("the strict verdict", () => {
	it.each([
		['{"outcome":"ALLOW"}', "upper-case outcome"],
		['{"outcome":"Allow","risk_level":"low"}', "capitalized outcome"],
		['{"outcome":"allow"} Actually, deny.', "opposite word after the verdict"],
		['I deny this. {"outcome":"allow"}', "opposite word before the verdict"],
		['{"outcome":"allow"} {"outcome":"deny"}', "two verdict objects"],
		['{"outcome":"allow"} {"outcome":"allow"}', "two verdict objects, even alike"],
		['{"verdict":{"outcome":"allow"}}', "a wrapped verdict"],
		['{"outcome":"allow","note":"x"}', "an unknown key"],
		// A nineteenth review: JSON.parse keeps the last of two keys; a refusal that does not say "deny".
		['{"outcome":"deny","risk_level":"low","outcome":"allow"}', "the outcome twice"],
		['{"outcome":"allow","risk_level":"critical" , "risk_level" :"low"}', "the risk twice"],
		['{"outcome":"allow"}\nOn reflection, this must NOT run: reject it, block it.', "a refusal after an allow"],
		['{"outcome":"allow","rationale":"Deny: this writes outside the workspace."}', "an allow whose rationale denies"],
	])("%j is a parse failure (%s)", (text) => {
		expect(parseVerdictText(text).ok).toBe(false);
	});

	it("accepts one verdict with agreeing text around it", () => {
		const parsed = parseVerdictText('I would allow it.\n{"outcome":"allow","risk_level":"low"}');
		expect(parsed.ok && parsed.value.verdict).toEqual({ outcome: "allow", risk_level: "low" });
		const deny = parseVerdictText('{"outcome":"deny","rationale":"it would not be allowed"}');
		expect(deny.ok && deny.value.verdict.outcome).toBe("deny");
	});

	it("a verdict call must be alone and not contradicted by the answer's text", () => {
		expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow" }], text: "" }).ok).toBe(true);
		expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow" }], text: "Actually, deny." }).ok).toBe(false);
		expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow" }, { outcome: "deny" }], text: "" }).ok).toBe(false);
		expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "DENY" }], text: "" }).ok).toBe(false);
		// An allow whose own rationale denies; a deny may say what is not allowed.
		const denying = { outcome: "allow", rationale: "Deny: this writes outside the workspace and must not run." };
		expect(parseVerdictAnswer({ verdictCalls: [denying], text: "" }).ok).toBe(false);
		// A twentieth review: other refusals in an allow's rationale or around it.
		for (const rationale of [
			"Reject: it writes outside.",
			"Refuse - no.",
			"Denial: not permitted.",
			"I must disallow this.",
		])
			expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow", rationale }], text: "" }).ok).toBe(false);
		expect(parseVerdictText('{"outcome":"allow","risk_level":"low"} This is NOT allowed: never run it.').ok).toBe(
			false,
		);
		const deny = { outcome: "deny", rationale: "Writes outside the workspace are not allowed." };
		expect(parseVerdictAnswer({ verdictCalls: [deny], text: "" }).ok).toBe(true);
		expect(parseVerdictText('{"outcome":"allow","rationale":"x","risk_level":"low"}').ok).toBe(true);
	});

	it("bounds the text it reads", () => {
		expect(parseVerdictText(`{"outcome":"allow"}${" ".repeat(70_000)}`).ok).toBe(false);
	});

	it("takes negated allowing and harm words as refusals, and an unfinished answer as a failure (a twenty-second review)", () => {
		for (const rationale of [
			"I cannot allow this: it prints the user's private SSH key.",
			"Forbidden and unsafe: exfiltrates a private SSH key; do not run it.",
			"Reading ~/.ssh/id_rsa should never be allowed.",
			"I won’t approve this.",
			"This is prohibited.",
		])
			expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow", rationale }], text: "" }).ok).toBe(false);
		expect(
			parseVerdictText('I would not allow this; it reads a private key.\n{"outcome":"allow","risk_level":"low"}').ok,
		).toBe(false);
		// A twenty-third review: markdown, zero-width characters, look-alike letters and other phrasings.
		for (const rationale of [
			"This must **not** be allowed: it prints a key.",
			"It is not to be allowed; it prints a key.",
			"I would de\u200bny this.",
			"I would d\u0435ny this.",
			"Do NOT let this run.",
			"Unacceptable: it prints a key.",
			"Should not be run.",
			"I am unable to approve this.",
			"Not safe. Deny.",
		])
			expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow", rationale }], text: "" }).ok).toBe(false);
		// What an allow's rationale usually says stays an allow, negated refusal words included.
		for (const rationale of [
			"Read-only listing; it does not run any program or write files.",
			"Safe: reads a workspace file, nothing outside is touched.",
			"The command is allowed by the user's request.",
			"It touches no unsafe paths.",
			"Nothing here is forbidden.",
			"The user has not blocked this.",
			"I see no reason to deny it.",
		])
			expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow", rationale }], text: "" }).ok).toBe(true);
		// Cut off by the output limit: the refusal may be what was cut.
		const cut = { verdictCalls: [], text: '{"outcome":"allow","risk_level":"low"}\nWait: this prints the key, so de' };
		expect(parseVerdictAnswer({ ...cut, finished: false }).ok).toBe(false);
		expect(parseVerdictAnswer({ ...cut, finished: true }).ok).toBe(true);
		expect(parseVerdictAnswer({ verdictCalls: [{ outcome: "allow" }], text: "", finished: false }).ok).toBe(false);
	});
});
