// Real Pi sessions (faux agent and reviewer) for Pi's reading tools. By default read, find and ls are
// `protected-only`: a read of a protected path by the read tool is reviewed like `cat` of it, on stock Pi's four
// tools too. grep is off by default; turned on, the grep tool (which reads every file below its path, hidden ones
// included) is allowed only below a folder whose tree holds nothing protected.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, expectNoLeak, guardianSandboxPerTest, resultTexts, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({
	homePrefix: "guardian-reading-home-",
	seedHome: (home) => {
		mkdirSync(join(home, ".ssh"));
		writeFileSync(join(home, ".ssh", "id_ed25519"), "very-secret-private-key\n");
	},
});

describe("Pi's reading tools, in a real session", () => {
	it("on stock Pi's tools, reviews the read tool on ~/.ssh and .env; other reads stay on the floor", async () => {
		const h = await sandbox.start({
			tools: ["read", "bash", "edit", "write"],
			files: { "src/app.py": "print('app')\n", ".env": "TOKEN=very-secret-env\n" },
		});
		h.agent(
			callTool("read", { path: "src/app.py" }),
			callTool("read", { path: "~/.ssh/id_ed25519" }),
			callTool("read", { path: ".env" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "a private key" }), verdict("deny"));
		await h.prompt("look at the app");
		expect(h.toolResults().map((result) => result.isError)).toEqual([false, true, true]);
		expect(resultTexts(h)[0]).toContain("print('app')");
		expect(resultTexts(h).join("\n")).not.toContain("very-secret");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(verdictSources(h)).toEqual(["floor", "reviewer", "reviewer"]);
		expectNoLeak(h, ["id_ed25519", ".ssh", "very-secret", "app.py"]);
	});

	it("on stock Pi's tools, reviews reads of other tools' credential stores and a workspace private key; with read off, Pi returns them", async () => {
		const home = sandbox.home;
		const stores: Record<string, string> = {
			".claude/.credentials.json": '{"claudeAiOauth":{"accessToken":"very-secret-claude-token"}}\n',
			".cargo/credentials.toml": '[registry]\ntoken = "very-secret-cargo-token"\n',
			".config/github-copilot/apps.json": '{"github.com":{"oauth_token":"very-secret-copilot-token"}}\n',
		};
		for (const [path, text] of Object.entries(stores)) {
			mkdirSync(join(home, path, ".."), { recursive: true });
			writeFileSync(join(home, path), text);
		}
		const files = { "deploy/server.key": "-----BEGIN PRIVATE KEY----- very-secret-tls-key\n", "src/app.py": "x = 1\n" };
		const h = await sandbox.start({ tools: ["read", "bash", "edit", "write"], files });
		h.agent(
			...Object.keys(stores).map((path) => callTool("read", { path: `~/${path}` })),
			callTool("bash", { command: "cat deploy/server.key" }),
			callTool("read", { path: "deploy/server.key" }),
			callTool("read", { path: "src/app.py" }),
			"done",
		);
		h.reviewer(...Array.from({ length: 2 }, () => verdict("deny", { risk_level: "high", rationale: "a credential" })));
		h.reviewer(verdict("allow", { risk_level: "low" }), verdict("deny", { risk_level: "high" }), verdict("deny"));
		await h.prompt("set up the project");
		expect(h.toolResults().map((result) => result.isError)).toEqual([true, true, false, true, true, false]);
		// The third store was allowed by the (scripted) reviewer: the floor sent it to review instead of reading it.
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "reviewer", "reviewer", "reviewer", "floor"]);
		expect(resultTexts(h)[2]).toContain("very-secret-copilot-token");
		expect(
			resultTexts(h)
				.filter((_, i) => i !== 2)
				.join("\n"),
		).not.toContain("very-secret");
		expectNoLeak(h, [".claude", ".cargo", "github-copilot", "server.key", "very-secret"]);

		// The host's behaviour the defaults guard against: Pi's read tool returns each of them.
		const open = await sandbox.start({ tools: ["read"], files, guardian: { tools: { read: "off" } } });
		open.agent(...Object.keys(stores).map((path) => callTool("read", { path: `~/${path}` })), "done");
		await open.prompt("set up the project");
		expect(resultTexts(open).map((text) => /very-secret-\w+-token/.exec(text)?.[0])).toEqual([
			"very-secret-claude-token",
			"very-secret-cargo-token",
			"very-secret-copilot-token",
		]);
	});

	it("adds a global protectedPaths entry to the defaults: .env stays reviewed beside the new folder; !glob drops a default", async () => {
		const files = {
			".env": "TOKEN=very-secret-env\n",
			"secrets/db.txt": "very-secret-db\n",
			"slides.key": "keynote\n",
		};
		const h = await sandbox.start({ files, guardian: { protectedPaths: ["secrets/", "!*.key"] } });
		h.agent(
			callTool("read", { path: ".env" }),
			callTool("read", { path: "secrets/db.txt" }),
			callTool("read", { path: "slides.key" }),
			"done",
		);
		h.reviewer(verdict("deny"), verdict("deny"));
		await h.prompt("look around");
		expect(h.toolResults().map((result) => result.isError)).toEqual([true, true, false]);
		expect(resultTexts(h).join("\n")).not.toContain("very-secret");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "floor"]);
	});

	it("reviews the read tool on /proc/self/environ, the environment Pi started with; with read off, Pi returns it", async () => {
		// /proc/self/environ holds the environment at exec time, where a provider key exported in the user's shell
		// sits: here the test process's own, so the proof looks for its PATH entry.
		const startPath = `PATH=${process.env.PATH ?? ""}`.slice(0, 40);
		const h = await sandbox.start({ tools: ["read", "bash", "edit", "write"] });
		h.agent(callTool("read", { path: "/proc/self/environ" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "the process environment" }));
		await h.prompt("what is configured?");
		expect(h.toolResults()[0]?.isError).toBe(true);
		expect(resultTexts(h).join("\n")).not.toContain("PATH=");
		expect(verdictSources(h)).toEqual(["reviewer"]);
		expectNoLeak(h, ["environ", "PATH="]);

		// The host's behaviour the default guards against: the read tool returns the process environment.
		const open = await sandbox.start({ tools: ["read"], guardian: { tools: { read: "off" } } });
		open.agent(callTool("read", { path: "/proc/self/environ" }), "done");
		await open.prompt("what is configured?");
		expect(resultTexts(open)[0]).toContain(startPath);
	});

	it("with grep turned on, allows it below a clean folder and reviews it below a folder holding .env and at the root", async () => {
		const h = await sandbox.start({
			guardian: { tools: { grep: "protected-only" } },
			files: {
				"src/app.py": "API_KEY = os.environ['API_KEY']\n",
				"config/settings.py": "API_KEY = None\n",
				"config/.env": "API_KEY=very-secret-env-value\n",
			},
		});
		h.agent(
			callTool("grep", { pattern: "API_KEY", path: "src" }),
			callTool("grep", { pattern: "API_KEY", path: "config" }),
			callTool("grep", { pattern: "API_KEY" }),
			callTool("find", { pattern: "*.py" }),
			callTool("ls", {}),
			"done",
		);
		h.reviewer(verdict("deny", { rationale: "reads a secret" }), verdict("deny", { rationale: "reads .git and .env" }));
		await h.prompt("where is API_KEY used?");
		expect(h.toolResults().map((result) => result.isError)).toEqual([false, true, true, false, false]);
		expect(resultTexts(h)[0]).toContain("app.py");
		expect(resultTexts(h).join("\n")).not.toContain("very-secret-env-value");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(verdictSources(h)).toEqual(["floor", "reviewer", "reviewer", "floor", "floor"]);
		expectNoLeak(h, ["API_KEY", "config", "very-secret"]);
	});

	it("pins the host: Pi's grep tool (off by default) reads hidden files below its path", async () => {
		const h = await sandbox.start({ files: { "config/.env": "API_KEY=very-secret-env-value\n" } });
		h.agent(callTool("grep", { pattern: "API_KEY", path: "config" }), "done");
		await h.prompt("search");
		expect(resultTexts(h)[0]).toContain("very-secret-env-value");
		expect(h.reviewerRequests()).toHaveLength(0);
		expect(verdictSources(h)).toEqual([]);
	});
});
