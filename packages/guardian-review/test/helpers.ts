// Test helpers: a harness where the faux provider plays both the agent (faux-1) and the reviewer (faux-reviewer).

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { createMcpExtension, type InlineExtension } from "@earendil-works/pi-coding-agent";
import {
	callTool,
	callTools,
	createHarness,
	type Harness,
	type HarnessOptions,
	type ModelRequest,
	reply,
} from "@pi-policy/pi-harness";
import { afterEach, beforeEach, expect } from "vitest";
import { createGuardianReview, type GuardianReviewOptions } from "../src/index.ts";
import { seenSessionIds } from "../src/session-processes.ts";

// Guardian keeps every session id it saw for the life of the process (allow-once waits for their background jobs);
// one test's leftover job must not hold the next test's grants.
afterEach(() => seenSessionIds.clear());

export const REVIEWER_MODEL = "faux/faux-reviewer";

/** A reply step: a message, text, or a function of the request. */
export type Step =
	| AssistantMessage
	| string
	| ((request: ModelRequest) => AssistantMessage | string | Promise<AssistantMessage | string>);

/** A harness plus separate agent and reviewer scripts, routed by the request's model id. */
export interface GuardianHarness extends Harness {
	agent(...steps: Step[]): void;
	reviewer(...steps: Step[]): void;
	/** Drops unconsumed agent and reviewer steps; returns how many agent steps were left. */
	clearScripts(): number;
	/** Requests that went to the reviewer model. */
	reviewerRequests(): ModelRequest[];
	/** Requests that went to the agent model. */
	agentRequests(): ModelRequest[];
	/** Every verdict event payload seen on the bus. */
	readonly verdicts: unknown[];
	/** Every audit event payload seen on the bus. */
	readonly auditEvents: unknown[];
	/** Audit entries persisted in the session. */
	audit(): Array<Record<string, unknown>>;
}

export interface GuardianHarnessOptions extends Omit<HarnessOptions, "models" | "fallbackReply"> {
	/** guardian-review global config (merged over `{ mode: "enforce", reviewer: { model: faux-reviewer } }`). */
	guardian?: Record<string, unknown> | string;
	/** Extensions loaded after guardian-review. */
	after?: InlineExtension[];
	/** Extensions loaded before guardian-review. */
	before?: InlineExtension[];
	guardianOptions?: GuardianReviewOptions;
}

/** A verdict tool call. */
export function verdict(
	outcome: "allow" | "deny",
	extra: { risk_level?: string; user_authorization?: string; rationale?: string } = {},
): AssistantMessage {
	return callTool("submit_verdict", { outcome, ...extra });
}

export async function createGuardianHarness(options: GuardianHarnessOptions = {}): Promise<GuardianHarness> {
	const agentQueue: Step[] = [];
	const reviewerQueue: Step[] = [];
	const verdicts: unknown[] = [];
	const auditEvents: unknown[] = [];
	const listener: InlineExtension = (pi) => {
		pi.events.on("pi-policy:verdict", (payload) => verdicts.push(payload));
		pi.events.on("pi-policy:audit", (payload) => auditEvents.push(payload));
	};
	const guardianConfig =
		typeof options.guardian === "string"
			? options.guardian
			: {
					mode: "enforce",
					// The product default: a loaded CI machine must not turn a scripted review into a timeout.
					reviewer: { model: REVIEWER_MODEL, fallbackToSessionModel: false, timeoutMs: 60_000 },
					...(options.guardian ?? {}),
				};
	const router = async (request: ModelRequest): Promise<AssistantMessage | string> => {
		const queue = request.modelId === "faux-reviewer" ? reviewerQueue : agentQueue;
		const step =
			queue.shift() ?? (request.modelId === "faux-reviewer" ? '{"outcome":"deny","rationale":"unscripted"}' : "done");
		return typeof step === "function" ? await step(request) : step;
	};
	const harness = await createHarness({
		...options,
		extensions: [
			listener,
			...(options.before ?? []),
			createGuardianReview(options.guardianOptions),
			...(options.after ?? []),
		],
		config: { ...(options.config ?? {}), "guardian-review": guardianConfig },
		models: [{ id: "faux-1" }, { id: "faux-reviewer" }],
		fallbackReply: router,
	});
	return Object.assign(harness, {
		agent: (...steps: Step[]) => agentQueue.push(...steps),
		reviewer: (...steps: Step[]) => reviewerQueue.push(...steps),
		clearScripts: () => {
			const left = agentQueue.length;
			agentQueue.length = 0;
			reviewerQueue.length = 0;
			return left;
		},
		reviewerRequests: () => harness.requests.filter((r) => r.modelId === "faux-reviewer"),
		agentRequests: () => harness.requests.filter((r) => r.modelId !== "faux-reviewer"),
		verdicts,
		auditEvents,
		audit: () => harness.entries<Record<string, unknown>>("pi-policy.audit"),
	});
}

export { callTool, callTools, reply };

/** Fails when any persisted or displayed surface carries one of `needles` (commands, paths, rationales). */
export function expectNoLeak(h: GuardianHarness, needles: readonly string[]): void {
	const surfaces = [
		JSON.stringify(h.audit()),
		JSON.stringify(h.verdicts),
		JSON.stringify(h.auditEvents),
		...(h.ui?.displayedText() ?? []),
	].join("\n");
	for (const needle of needles) {
		if (surfaces.includes(needle))
			throw new Error(`leaked a test string into audit, bus or UI: ${needle.slice(0, 40)}`);
	}
}

/** Text of every tool result, in order. */
export function resultTexts(h: Harness): string[] {
	return h.toolResults().map((result) => h.toolResultText(result));
}

/** A throwaway HOME per test and the guardian sessions started in it. */
export interface GuardianSandbox {
	/** The running test's HOME (a fresh temp directory, removed after the test). */
	readonly home: string;
	/**
	 * Start a guardian session with `ui: false`, HOME and the guardian's home set to the sandbox, then the file's
	 * defaults, then `options` (each replacing key by key). Disposed after the test, before the HOME is removed.
	 */
	start(options?: GuardianHarnessOptions): Promise<GuardianHarness>;
}

export interface GuardianSandboxSetup {
	/** Prefix of the temp directory's name. Default "guardian-home-". */
	homePrefix?: string;
	/** Runs on the fresh HOME before each test (to seed files into it). */
	seedHome?: (home: string) => void;
	/** Options for every session of the file, under each call's own options. */
	defaults?: GuardianHarnessOptions;
}

/**
 * Sessions for the tests of one file, each test in its own HOME so a floor failure could only ever touch that
 * directory. Registers a beforeEach (create and seed the HOME) and an afterEach (dispose the sessions, remove the HOME).
 */
export function guardianSandboxPerTest(setup: GuardianSandboxSetup = {}): GuardianSandbox {
	let home: string | undefined;
	const live: GuardianHarness[] = [];
	beforeEach(() => {
		home = mkdtempSync(join(tmpdir(), setup.homePrefix ?? "guardian-home-"));
		setup.seedHome?.(home);
	});
	afterEach(async () => {
		for (const harness of live.splice(0)) await harness.dispose();
		if (home !== undefined) await rm(home, { recursive: true, force: true });
		home = undefined;
	});
	const currentHome = (): string => {
		if (home === undefined) throw new Error("the sandbox HOME exists only while a test runs");
		return home;
	};
	return {
		get home() {
			return currentHome();
		},
		async start(options: GuardianHarnessOptions = {}) {
			const sandboxHome = currentHome();
			const harness = await createGuardianHarness({
				ui: false,
				env: { HOME: sandboxHome },
				guardianOptions: { home: sandboxHome },
				...setup.defaults,
				...options,
			});
			live.push(harness);
			return harness;
		},
	};
}

/** The session asked the reviewer once, about one call, and the reviewer denied it. */
export function expectOneReviewerDenial(harness: GuardianHarness, tool = "bash"): void {
	expect(harness.reviewerRequests()).toHaveLength(1);
	expect(harness.verdicts).toEqual([expect.objectContaining({ decision: "deny", source: "reviewer", tool })]);
}

/** Where each verdict came from (`floor`, `reviewer`, `cache`, …), in order. */
export function verdictSources(harness: GuardianHarness): string[] {
	return harness.verdicts.map((v) => (v as { source: string }).source);
}

/**
 * Runs git in `cwd` with HOME set to `home`, no system config and a fixed author, so a test's repository is the
 * same on every machine. Output is discarded; a failing git throws.
 */
export function runGit(home: string, cwd: string, ...args: string[]): void {
	execFileSync("git", args, {
		cwd,
		env: {
			...process.env,
			HOME: home,
			GIT_CONFIG_NOSYSTEM: "1",
			GIT_AUTHOR_NAME: "t",
			GIT_AUTHOR_EMAIL: "t@example.invalid",
			GIT_COMMITTER_NAME: "t",
			GIT_COMMITTER_EMAIL: "t@example.invalid",
		},
		stdio: "ignore",
	});
}

/** Makes `repo` (created as needed) a repository whose first commit holds `files` (relative paths, folders made). */
export function initWithFiles(home: string, repo: string, files: Record<string, string>): void {
	mkdirSync(repo, { recursive: true });
	runGit(home, repo, "init", "-q");
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(dirname(join(repo, name)), { recursive: true });
		writeFileSync(join(repo, name), text);
	}
	runGit(home, repo, "add", ".");
	runGit(home, repo, "commit", "-qm", "files");
}

/** Each verdict of a session as `tool:source`, in order (`write:floor`, `bash:reviewer`). */
export function verdictsOf(h: GuardianHarness): string[] {
	return h.verdicts.map((v) => `${(v as { tool: string }).tool}:${(v as { source: string }).source}`);
}

/** git's output in `cwd`, trimmed, as the user runs it: HOME set to `home`, no system config. A failing git throws. */
export function gitOutput(home: string, cwd: string, ...args: string[]): string {
	return execFileSync("git", args, {
		cwd,
		env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: "1" },
		encoding: "utf8",
	}).trim();
}

/**
 * A workspace repository `ws` in `home` holding an ignored clone at `clonePath` whose `core.hooksPath` is
 * `hooksPath` (naming the workspace's `tools/hooks`, which is made), for the nested-repository reviews.
 */
export function workspaceWithIgnoredClone(
	home: string,
	clonePath: string,
	hooksPath: string,
): { ws: string; lib: string } {
	const ws = join(home, "ws");
	initWithFiles(home, ws, { "README.md": "x\n", ".gitignore": `${clonePath.split("/")[0]}/\n` });
	const lib = join(ws, clonePath);
	initWithFiles(home, lib, { "lib.txt": "x\n" });
	runGit(home, lib, "config", "core.hooksPath", hooksPath);
	mkdirSync(join(ws, "tools/hooks"), { recursive: true });
	return { ws, lib };
}

/** The text of a hook a project already has, which does nothing (see {@link writeProjectHook}). */
export const PROJECT_HOOK = "#!/bin/sh\nexit 0\n";

/** Writes an executable {@link PROJECT_HOOK} at `path`, its folder made: a hook git would run as it is. */
export function writeProjectHook(path: string): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, PROJECT_HOOK, { mode: 0o755 });
}

/** A session (HOME the sandbox's, no system git config) whose workspace is a repository holding README.md. */
export async function startInGitRepo(sandbox: GuardianSandbox): Promise<GuardianHarness> {
	const h = await sandbox.start({ env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" } });
	initWithFiles(sandbox.home, h.cwd, { "README.md": "hello\n" });
	return h;
}

/** A secret in `~/.kube/config`, for tests that check it never reaches the workspace or the agent. */
export const KUBE_TOKEN = "token: very-secret-kube-token";

/** Seeds `~/.kube/config` with {@link KUBE_TOKEN} (a sandbox's `seedHome`). */
export function seedKubeConfig(home: string): void {
	mkdirSync(join(home, ".kube"));
	writeFileSync(join(home, ".kube", "config"), `${KUBE_TOKEN}\n`);
}

/** A git repository workspace that tracks a link `n2 -> ~/.kube` (a cloned project may ship one). */
export async function startWithTrackedKubeLink(sandbox: GuardianSandbox): Promise<GuardianHarness> {
	const h = await startInGitRepo(sandbox);
	symlinkSync(join(sandbox.home, ".kube"), join(h.cwd, "n2"));
	runGit(sandbox.home, h.cwd, "add", "n2");
	runGit(sandbox.home, h.cwd, "commit", "-qm", "link");
	return h;
}

/**
 * Runs each bash command of `reviewed` (two per prompt; the reviewer denies them) and then those of `allowed` (one
 * prompt), and expects the reviewer to have judged the first and the floor to have allowed the rest.
 */
export async function expectBashVerdicts(
	h: GuardianHarness,
	reviewed: readonly string[],
	allowed: readonly string[],
): Promise<void> {
	const steps: Step[] = [];
	const prompts: string[] = [];
	const bash = (command: string) => callTool("bash", { command });
	for (let i = 0; i < reviewed.length; i += 2) {
		steps.push(...reviewed.slice(i, i + 2).map(bash), "next");
		prompts.push(`run the commands of group ${i / 2 + 1}`);
	}
	if (allowed.length > 0) {
		steps.push(...allowed.map(bash));
		prompts.push("run the last commands");
	}
	steps.push("done");
	h.agent(...steps);
	expect(await promptsWithDenials(h, reviewed.length, ...prompts)).toEqual([
		...reviewed.map(() => "reviewer"),
		...allowed.map(() => "floor"),
	]);
}

/**
 * Queues `denials` reviewer denials (high risk), then sends each prompt in turn (three denials in a row stop a turn,
 * so a test spreads them over prompts); answers the verdict sources of every call.
 */
export async function promptsWithDenials(h: GuardianHarness, denials: number, ...prompts: string[]): Promise<string[]> {
	h.reviewer(...Array.from({ length: denials }, () => verdict("deny", { risk_level: "high" })));
	for (const prompt of prompts) await h.prompt(prompt);
	return verdictSources(h);
}

/**
 * The reviewer denies the agent's one call made on `prompt`, then the user commits a change in the workspace (HOME
 * `home`): expects the call went to the reviewer and the hook that would write `marker` never ran.
 */
export async function expectReviewedAndNoHookAtCommit(
	h: GuardianHarness,
	home: string,
	prompt: string,
	marker: string,
): Promise<void> {
	h.reviewer(verdict("deny", { risk_level: "high" }));
	await h.prompt(prompt);
	writeFileSync(join(h.cwd, "README.md"), "changed\n");
	runGit(home, h.cwd, "commit", "-qam", "the user's commit");
	expect({ sources: verdictSources(h), ran: existsSync(marker) }).toEqual({ sources: ["reviewer"], ran: false });
}

/** git's arguments for the user's own commit with nothing staged: the commit hooks run. */
export const USER_EMPTY_COMMIT = ["commit", "-q", "--allow-empty", "-m", "the user's commit"] as const;

/**
 * The reviewer denies the agent's one call made on `prompt`, then the user runs `git ...gitArgs` in `repo` (HOME
 * `home`): expects the call went to the reviewer and the program that would write `marker` never ran.
 */
export async function expectDeniedAndUserGitRunsNothing(
	h: GuardianHarness,
	home: string,
	prompt: string,
	marker: string,
	repo: string,
	...gitArgs: string[]
): Promise<void> {
	h.reviewer(verdict("deny", { risk_level: "high" }));
	await h.prompt(prompt);
	runGit(home, repo, ...gitArgs);
	expect({ sources: verdictSources(h), ran: existsSync(marker) }).toEqual({ sources: ["reviewer"], ran: false });
}

/** The agent runs `command`, the reviewer denies it, and the user runs `/guardian allow-once` (needs a UI). */
export async function deniedAndGranted(h: GuardianHarness, command: string): Promise<void> {
	h.agent(callTool("bash", { command }), "denied");
	h.reviewer(verdict("deny", { risk_level: "high" }));
	await h.prompt("build it");
	await h.command("/guardian allow-once");
}

/** Runs one bash call the reviewer denies; answers the verdict sources and the text of every tool result. */
export async function deniedBashCall(
	h: GuardianHarness,
	command: string,
): Promise<{ sources: string[]; shown: string }> {
	h.agent(callTool("bash", { command }), "done");
	h.reviewer(verdict("deny", { risk_level: "high" }));
	await h.prompt("go on");
	return { sources: verdictSources(h), shown: resultTexts(h).join("\n") };
}

const FILESYSTEM_SERVER = createRequire(import.meta.url).resolve(
	"@modelcontextprotocol/server-filesystem/dist/index.js",
);

/** Pi's MCP support with the filesystem server registered over stdio, rooted at the session directory. */
export const filesystemServer: InlineExtension = (pi) => {
	pi.registerMcpServer("fs", {
		command: process.execPath,
		args: [FILESYSTEM_SERVER, "."],
		cwd: ".",
		exposure: "direct",
	});
};

/** Pi's default tools plus the filesystem server's, with Pi's MCP support and the server loaded. */
export function withFilesystemServer(...more: InlineExtension[]): {
	tools: string[];
	before: InlineExtension[];
} {
	return {
		tools: ["read", "bash", "edit", "write", "mcp__fs__*"],
		before: [createMcpExtension(), filesystemServer, ...more],
	};
}

/**
 * The agent writes `notes.md`, then `path` (with `content`); the reviewer denies what reaches it. Shows the plain
 * write decided on the floor and the one at `path` reviewed.
 */
export async function expectNotesOnFloorAndWriteReviewed(
	h: GuardianHarness,
	path: string,
	content: string,
): Promise<void> {
	h.agent(callTool("write", { path: "notes.md", content: "# notes\n" }), callTool("write", { path, content }), "done");
	h.reviewer(verdict("deny", { risk_level: "high" }));
	await h.prompt("take notes, then write the file");
	expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
}
