// What a first-hour review could not tell from `/guardian status`, in real sessions: that the configured reviewer has
// no credentials (every review then takes the unavailable path), and that the environment sends more to review
// (pyenv's shims on PATH make `node -v` a review).
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, promptsWithDenials } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-first-hour-home-" });

describe("/guardian status for a first-hour user", () => {
	it("names a reviewer model that has no credentials, and the review is unavailable as it says", async () => {
		const h = await sandbox.start({
			ui: {},
			env: { HOME: sandbox.home, ANTHROPIC_API_KEY: undefined },
			guardian: { mode: "enforce", reviewer: { model: "anthropic/claude-haiku-4-5" }, onUnavailable: "deny" },
		});
		await h.command("/guardian status");
		expect(h.ui?.notifications().at(-1)?.message).toContain(
			"\nreviewer: anthropic/claude-haiku-4-5 (no credentials: every review is unavailable)\n",
		);
		h.agent(callTool("bash", { command: "sh build.sh" }), "done");
		await h.prompt("build");
		await h.command("/guardian status");
		expect(h.ui?.notifications().at(-1)?.message).toContain("\nunavailable: no-auth 1\n");
	});

	it("names the faux reviewer plainly when it can be asked", async () => {
		const h = await sandbox.start({ ui: {} });
		await h.command("/guardian status");
		expect(h.ui?.notifications().at(-1)?.message).toMatch(/\nreviewer: faux\/faux-reviewer\n/);
	});

	it("says that a version manager's shims on PATH send version probes to review", async () => {
		const environment = { HOME: sandbox.home, PATH: `${sandbox.home}/.pyenv/shims:/usr/local/bin:/usr/bin:/bin` };
		const h = await sandbox.start({ ui: {}, guardianOptions: { home: sandbox.home, environment } });
		h.agent(callTool("bash", { command: "node -v" }), "done");
		expect(await promptsWithDenials(h, 1, "which node?")).toEqual(["reviewer"]);
		await h.command("/guardian status");
		expect(h.ui?.notifications().at(-1)?.message).toContain(
			"shell: bash (the floor judges commands; reviewed because of the environment: version probes (a version manager's shims are on PATH))",
		);
	});

	it("says why the floor did not decide the calls it passed on, by enum", async () => {
		const h = await sandbox.start({ ui: {}, files: { "a.txt": "a\n" } });
		h.agent(
			callTool("bash", { command: "cat a.txt" }),
			callTool("bash", { command: "python3 -c 'print(1)'" }),
			callTool("bash", { command: "cat ~/.bash_history" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "look around")).toEqual(["floor", "reviewer", "reviewer"]);
		await h.command("/guardian status");
		const status = h.ui?.notifications().at(-1)?.message ?? "";
		expect(status).toContain("\nnot decided by the floor, by why: not-read-only 1, protected-path 1\n");
		expect(status).not.toContain("python");
		expect(status).not.toContain("bash_history");
	});
});
