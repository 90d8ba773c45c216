// Real Pi sessions (stock Pi's four tools, faux agent and reviewer) over real git repositories: a recursive search
// of the workspace root, the commonest search an agent runs, is allowed with no reviewer call when the tree holds
// no protected entry and the repository's `.git/` config holds no credential (decision 0019). A token the config
// carries (actions/checkout's persisted header, a token in the remote URL) or a `.env` at the root sends it to
// review, and a denial keeps the secret out of the session.
import { describe, expect, it } from "vitest";
import {
	callTool,
	expectNoLeak,
	type GuardianHarness,
	type GuardianHarnessOptions,
	guardianSandboxPerTest,
	resultTexts,
	runGit,
	verdict,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest();
const STOCK_TOOLS = ["read", "bash", "edit", "write"];
const HEADER_TOKEN = "eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA==";

function git(cwd: string, ...args: string[]): void {
	runGit(sandbox.home, cwd, ...args);
}

/** A committed repository with a remote, as a fresh clone has; `configure` runs before the session starts. */
async function startInRepo(
	configure: (cwd: string) => void = () => {},
	options: GuardianHarnessOptions = {},
): Promise<GuardianHarness> {
	const harness = await sandbox.start({
		tools: STOCK_TOOLS,
		env: { HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: "1" },
		files: { "src/app.py": "def handler():\n    return 'needle'\n", "README.md": "needle docs\n" },
		...options,
	});
	git(harness.cwd, "init", "-q");
	git(harness.cwd, "remote", "add", "origin", "https://github.com/example/app.git");
	git(harness.cwd, "add", "-A");
	git(harness.cwd, "commit", "-qm", "init");
	configure(harness.cwd);
	return harness;
}

describe("a recursive search of the workspace root (decision 0019)", () => {
	it("is allowed with no reviewer call in a clean repository: grep -rn at the root, and with no path", async () => {
		const h = await startInRepo();
		h.agent(
			callTool("bash", { command: "grep -rn needle ." }),
			callTool("bash", { command: "grep -rn --include='*.py' needle" }),
			"done",
		);
		await h.prompt("where is needle used?");
		expect(h.reviewerRequests()).toHaveLength(0);
		expect(h.verdicts).toEqual([
			expect.objectContaining({ decision: "allow", source: "floor", tool: "bash" }),
			expect.objectContaining({ decision: "allow", source: "floor", tool: "bash" }),
		]);
		expect(resultTexts(h)[0]).toContain("src/app.py:2:");
		expect(resultTexts(h)[1]).toContain("src/app.py:2:");
	});

	it("is reviewed where the git config persists a credential header, and a denial keeps the token out", async () => {
		const h = await startInRepo((cwd) =>
			git(cwd, "config", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${HEADER_TOKEN}`),
		);
		h.agent(callTool("bash", { command: "grep -rn AUTHORIZATION ." }), "done");
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "reads a credential" }));
		await h.prompt("find the auth header");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.verdicts).toEqual([expect.objectContaining({ decision: "deny", source: "reviewer", tool: "bash" })]);
		expectNoLeak(h, [HEADER_TOKEN]);
		expect(resultTexts(h).join("\n")).not.toContain(HEADER_TOKEN);
	});

	it("is reviewed where the remote URL carries a token, or a .env lies at the root", async () => {
		const token = await startInRepo((cwd) =>
			git(cwd, "remote", "set-url", "origin", "https://ghp_sessiontoken1@github.com/example/app.git"),
		);
		token.agent(callTool("bash", { command: "grep -rn needle ." }), "done");
		token.reviewer(verdict("deny", { risk_level: "high" }));
		await token.prompt("search");
		expect(token.reviewerRequests()).toHaveLength(1);
		expectNoLeak(token, ["ghp_sessiontoken1"]);
		expect(resultTexts(token).join("\n")).not.toContain("ghp_sessiontoken1");

		const env = await startInRepo(() => {}, {
			files: { "src/app.py": "needle\n", ".env": "API_KEY=needle-secret-value\n" },
		});
		env.agent(callTool("bash", { command: "grep -rn needle ." }), "done");
		env.reviewer(verdict("deny", { risk_level: "high" }));
		await env.prompt("search");
		expect(env.reviewerRequests()).toHaveLength(1);
		expectNoLeak(env, ["needle-secret-value"]);
		expect(resultTexts(env).join("\n")).not.toContain("needle-secret-value");
	});

	it("judges Pi's grep tool at the root the same way, when it is turned on", async () => {
		const options: GuardianHarnessOptions = {
			tools: [...STOCK_TOOLS, "grep"],
			guardian: { tools: { grep: "protected-only" } },
		};
		const clean = await startInRepo(() => {}, options);
		clean.agent(callTool("grep", { pattern: "needle" }), "done");
		await clean.prompt("where is needle?");
		expect(clean.reviewerRequests()).toHaveLength(0);
		expect(clean.verdicts).toEqual([expect.objectContaining({ decision: "allow", source: "floor" })]);
		expect(resultTexts(clean)[0]).toContain("app.py");

		const header = await startInRepo(
			(cwd) => git(cwd, "config", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${HEADER_TOKEN}`),
			options,
		);
		header.agent(callTool("grep", { pattern: "AUTHORIZATION" }), "done");
		header.reviewer(verdict("deny", { risk_level: "high" }));
		await header.prompt("find the header");
		expect(header.reviewerRequests()).toHaveLength(1);
		expect(resultTexts(header).join("\n")).not.toContain(HEADER_TOKEN);
	});

	it("keeps reviewing what the lister cannot judge: above the root, and a glob that may expand to ..", async () => {
		const h = await startInRepo();
		h.agent(
			callTool("bash", { command: "grep -rn needle .." }),
			callTool("bash", { command: "grep -rn needle .*" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "medium" }), verdict("deny", { risk_level: "medium" }));
		await h.prompt("search everywhere");
		expect(h.reviewerRequests()).toHaveLength(2);
	});
});
