// What an eighteenth review got past the floor, in real Pi sessions (faux agent and reviewer, real git).
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	callTool,
	guardianSandboxPerTest,
	promptsWithDenials,
	resultTexts,
	runGit,
	startInGitRepo,
} from "./helpers.ts";

const sandbox = guardianSandboxPerTest({ homePrefix: "guardian-review18-home-" });

describe("an eighteenth review, in real sessions", () => {
	it("reviews git show where a remote with only a partial-clone filter would fetch a missing object", async () => {
		const h = await startInGitRepo(sandbox);
		const marker = join(sandbox.home, "MARKER");
		// git makes a remote a promisor when it has a filter; a read that meets a missing object fetches through it.
		runGit(sandbox.home, h.cwd, "config", "remote.x.partialclonefilter", "blob:none");
		runGit(sandbox.home, h.cwd, "config", "remote.x.url", `ext::sh -c touch% ${marker}`);
		runGit(sandbox.home, h.cwd, "config", "protocol.ext.allow", "always");
		// README.md's blob, which `git show HEAD:README.md` needs, is missing.
		const blob = "ce013625030ba8dba906f756967f9e9ca394464a"; // "hello\n"
		rmSync(join(h.cwd, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
		h.agent(
			callTool("bash", { command: "git show HEAD:README.md" }),
			callTool("bash", { command: "git log -p" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "show me the readme")).toEqual(["reviewer", "reviewer"]);
		expect(existsSync(marker)).toBe(false);
	});

	it("reviews heredocs whose end bash finds elsewhere: a delimiter holding a dollar brace, a newline in <(…) while one waits", async () => {
		const h = await sandbox.start({ files: { ".env": "API_KEY=very-secret-env\n" } });
		const marker = join(sandbox.home, "MARKER");
		h.agent(
			callTool("bash", { command: `cat <<'a'\${x y}\na\${x y}\ncat .env; touch ${marker}\na\${x\necho }` }),
			callTool("bash", { command: `cat <<'E' <(pwd\ncat .env; touch ${marker}\nE\n)` }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "show the notes")).toEqual(["reviewer", "reviewer"]);
		expect(existsSync(marker)).toBe(false);
		expect(resultTexts(h).join("\n")).not.toContain("very-secret-env");
	});

	it("reviews Pi's read of credential stores the defaults missed: git's second store, podman, glab, Terraform", async () => {
		const stores = [
			".config/git/credentials",
			".config/containers/auth.json",
			".config/glab-cli/config.yml",
			".terraformrc",
		];
		for (const store of stores) {
			mkdirSync(dirname(join(sandbox.home, store)), { recursive: true });
			writeFileSync(join(sandbox.home, store), "token: very-secret-store\n");
		}
		const h = await sandbox.start({});
		h.agent(callTool("read", { path: `~/${stores[0]}` }), callTool("read", { path: `~/${stores[1]}` }), "next");
		h.agent(callTool("read", { path: `~/${stores[2]}` }), callTool("read", { path: `~/${stores[3]}` }), "done");
		expect(await promptsWithDenials(h, 4, "check my logins", "go on")).toEqual([
			"reviewer",
			"reviewer",
			"reviewer",
			"reviewer",
		]);
		expect(resultTexts(h).join("\n")).not.toContain("very-secret-store");
	});

	it("reviews `file -m` with a colon list, and an operand shaped like k=v/config through a link named k=v", async () => {
		mkdirSync(join(sandbox.home, ".kube"));
		writeFileSync(join(sandbox.home, ".kube", "config"), "token: very-secret-kube-token\n");
		const h = await sandbox.start({ files: { ".env": "API_KEY=very-secret-env\n", "README.md": "hello\n" } });
		// A link a cloned repository may bring.
		symlinkSync(join(sandbox.home, ".kube"), join(h.cwd, "k=v"));
		h.agent(
			callTool("bash", { command: "file -m x:.env README.md" }),
			callTool("bash", { command: "cat k=v/config" }),
			"next",
			callTool("bash", { command: "cp k=v/config copied.txt && cat copied.txt" }),
			callTool("bash", { command: "file README.md" }),
			"done",
		);
		expect(await promptsWithDenials(h, 3, "what is there?", "go on")).toEqual([
			"reviewer",
			"reviewer",
			"reviewer",
			"floor",
		]);
		const shown = resultTexts(h).join("\n");
		expect(shown).not.toContain("very-secret");
		expect(existsSync(join(h.cwd, "copied.txt"))).toBe(false);
	});

	it("reviews trusted make and pytest whose options run code of the caller's choosing", async () => {
		const h = await sandbox.start({
			files: {
				Makefile: "test:\n\t@echo running tests\n",
				"tests/test_a.py": "def test_a():\n    assert True\n",
			},
			guardian: { trustedCommands: ["make test", "pytest"] },
		});
		const marker = join(sandbox.home, "MARKER");
		h.agent(
			// Its parts name no path outside: the recipe changes to home first.
			callTool("bash", { command: "make test -E 'test: pwn' -E 'pwn: ; cd ; touch MARKER'" }),
			// Importing `this` prints the Zen of Python: any installed module's import-time code runs.
			callTool("bash", { command: "pytest -q -p this tests" }),
			"next",
			callTool("bash", { command: "make test -j2" }),
			callTool("bash", { command: "pytest -q -p no:cacheprovider tests" }),
			"done",
		);
		expect(await promptsWithDenials(h, 2, "run the tests", "go on")).toEqual([
			"reviewer",
			"reviewer",
			"floor",
			"floor",
		]);
		expect(existsSync(marker)).toBe(false);
		const shown = resultTexts(h).join("\n");
		expect(shown).not.toContain("Beautiful is better than ugly");
		expect(shown).toContain("running tests");
	});
});
