// grep with an option after its operands, where the shell's options may end at the first operand (POSIXLY_CORRECT
// here; macOS gives the same fact): decided on the floor, and the option's word is still judged as the file it would
// then be. Real sessions, faux agent and reviewer, real bash.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, guardianSandboxPerTest, promptsWithDenials, resultTexts } from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-grep-after-operand-home-" });
const command = "grep -rn needle src --exclude-dir=vendor";

function posixlyCorrect() {
	return { HOME: sandbox.home, PATH: "/usr/local/bin:/usr/bin:/bin", POSIXLY_CORRECT: "1" };
}

describe("grep's options after an operand, in real sessions", () => {
	it("is allowed by the floor where options may end at the first operand", async () => {
		const h = await sandbox.start({
			files: { "src/a.py": "needle = 1\n", "src/vendor/b.py": "needle = 2\n" },
			guardianOptions: { home: sandbox.home, environment: posixlyCorrect() },
		});
		h.agent(callTool("bash", { command }), "done");
		expect(await promptsWithDenials(h, 0, "find the needle")).toEqual(["floor"]);
		expect(h.reviewerRequests()).toHaveLength(0);
		expect(resultTexts(h)[0]).toContain("src/a.py:1:needle = 1");
	});

	it("is reviewed when the repository ships a link under the option's name that leads outside", async () => {
		const h = await sandbox.start({
			files: { "src/a.py": "needle = 1\n" },
			guardianOptions: { home: sandbox.home, environment: posixlyCorrect() },
		});
		mkdirSync(join(sandbox.home, ".aws"));
		writeFileSync(join(sandbox.home, ".aws", "credentials"), "needle = secret\n");
		symlinkSync(join(sandbox.home, ".aws"), join(h.cwd, "--exclude-dir=vendor"));
		h.agent(callTool("bash", { command }), "done");
		expect(await promptsWithDenials(h, 1, "find the needle")).toEqual(["reviewer"]);
	});

	it("follows no such link where options never end early (GNU grep, no POSIXLY_CORRECT)", async () => {
		const h = await sandbox.start({
			files: { "src/a.py": "needle = 1\n" },
			guardianOptions: {
				home: sandbox.home,
				environment: { HOME: sandbox.home, PATH: "/usr/local/bin:/usr/bin:/bin" },
			},
		});
		mkdirSync(join(sandbox.home, ".aws"));
		symlinkSync(join(sandbox.home, ".aws"), join(h.cwd, "--exclude-dir=vendor"));
		h.agent(callTool("bash", { command }), "done");
		expect(await promptsWithDenials(h, 0, "find the needle")).toEqual(["floor"]);
	});
});
