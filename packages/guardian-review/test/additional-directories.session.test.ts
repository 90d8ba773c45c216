// Real Pi sessions (faux agent and reviewer): `additionalDirectories` in the global file adds folders to the
// workspace, such as a notes folder next to the project. Reads and writes there are judged like the workspace's,
// so they need no reviewer call; protected paths there are still reviewed, and a project file cannot add a folder.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, expectNoLeak, guardianSandboxPerTest, resultTexts, verdict, verdictSources } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({
	homePrefix: "guardian-dirs-home-",
	seedHome: (home) => {
		mkdirSync(join(home, "notes", "knowledge"), { recursive: true });
		writeFileSync(join(home, "notes", "knowledge", "testing.md"), "run the suite with -x\n");
		writeFileSync(join(home, "notes", ".env"), "TOKEN=very-secret-notes-value\n");
	},
});

describe("additionalDirectories, in a real session on stock Pi's tools", () => {
	it("reads and writes a notes folder with no reviewer call; its .env is still reviewed", async () => {
		const h = await sandbox.start({
			tools: ["read", "bash", "edit", "write"],
			guardian: { additionalDirectories: ["~/notes"] },
			ui: {},
		});
		const notes = join(sandbox.home, "notes");
		h.agent(
			callTool("bash", { command: `ls ${notes}/knowledge/ && cat ${notes}/knowledge/testing.md` }),
			callTool("read", { path: "~/notes/knowledge/testing.md" }),
			callTool("bash", { command: `cat > ${notes}/knowledge/session.md <<'EOF'\nlearned: use -x\nEOF` }),
			callTool("write", { path: "~/notes/plan.md", content: "1. fix\n" }),
			callTool("bash", { command: `grep -rn suite ${notes}/knowledge` }),
			callTool("bash", { command: `cat ${notes}/.env` }),
			callTool("bash", { command: `grep -rn TOKEN ${notes}` }),
			"done",
		);
		h.reviewer(
			verdict("deny", { risk_level: "high", rationale: "a secret file" }),
			verdict("deny", { risk_level: "high", rationale: "searches a folder holding a secret" }),
		);
		await h.prompt("check my notes, then save what you learn");
		const texts = resultTexts(h);
		expect(texts[0]).toContain("run the suite with -x");
		expect(texts[1]).toContain("run the suite with -x");
		expect(readFileSync(join(notes, "knowledge", "session.md"), "utf8")).toBe("learned: use -x\n");
		expect(readFileSync(join(notes, "plan.md"), "utf8")).toBe("1. fix\n");
		// The recursive search of a folder holding nothing protected is allowed once the shell listed that tree.
		expect(texts[4]).toContain("testing.md:1:run the suite with -x");
		expect(texts.join("\n")).not.toContain("very-secret-notes-value");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(h.requestText(h.reviewerRequests()[0]!)).toContain(
			`The user's config adds these folders to the workspace: ["${notes}"]`,
		);
		expect(verdictSources(h)).toEqual(["floor", "floor", "floor", "floor", "floor", "reviewer", "reviewer"]);
		await h.command("/guardian status");
		const status = h.ui?.notifications().at(-1)?.message ?? "";
		expect(status).toContain("workspace: the working directory and 1 additional");
		expect(status).toContain("decided by the floor: 5 of 7 calls (71%)");
		expectNoLeak(h, ["notes", "very-secret", "testing.md"]);
	});

	it("without the key the same folder is outside the workspace: each call goes to the reviewer", async () => {
		const h = await sandbox.start({ tools: ["read", "bash", "edit", "write"] });
		const notes = join(sandbox.home, "notes");
		h.agent(
			callTool("bash", { command: `cat ${notes}/knowledge/testing.md` }),
			callTool("write", { path: "~/notes/plan.md", content: "1. fix\n" }),
			"done",
		);
		h.reviewer(verdict("allow", { risk_level: "low" }), verdict("deny", { risk_level: "medium" }));
		await h.prompt("check my notes");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(h.requestText(h.reviewerRequests()[0]!)).not.toContain("adds these folders");
		expect(existsSync(join(notes, "plan.md"))).toBe(false);
	});

	it("ignores additionalDirectories from a project file", async () => {
		const h = await sandbox.start({
			tools: ["read", "bash", "edit", "write"],
			projectConfig: { "guardian-review": { additionalDirectories: ["~"] } },
		});
		h.agent(callTool("write", { path: "~/notes/plan.md", content: "planted\n" }), "done");
		h.reviewer(verdict("deny", { risk_level: "medium" }));
		await h.prompt("write the plan");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(existsSync(join(sandbox.home, "notes", "plan.md"))).toBe(false);
	});
});
