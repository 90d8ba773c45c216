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
