// Real Pi sessions (faux agent and reviewer) for the floor over the bash syntax tree (issue 13): read-only chains and
// `cd sub && grep` decided with no reviewer call, rm/touch/cp/mv on named workspace files allowed, a heredoc into the workspace allowed and into ~/.bashrc reviewed,
// `sed -i` inserting a workspace file allowed and inserting `.env` reviewed, ripgrep's program-running flags reviewed, shell history reviewed, recursive searches judged by what the tree holds,
// and a 1 MiB command decided without a hang.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	callTool,
	expectNoLeak,
	type GuardianHarness,
	guardianSandboxPerTest,
	resultTexts,
	verdict,
	verdictSources,
} from "./helpers.ts";

let h: GuardianHarness | undefined;
let sandboxHome: string;
const start = guardianSandboxPerTest({
	homePrefix: "guardian-floor-home-",
	seedHome: (home) => {
		sandboxHome = home;
		writeFileSync(join(home, ".bash_history"), "export API_TOKEN=very-secret-history-line\n");
	},
}).start;

describe("the floor over the syntax tree, in a real session", () => {
	it("allows a chain of read-only commands and `cd sub && grep -n x f` with no reviewer call", async () => {
		h = await start({ files: { "a.txt": "hello\n", "sub/f": "first\nx marks the spot\n" } });
		h.agent(
			callTool("bash", { command: "ls; cat a.txt | wc -l && pwd" }),
			callTool("bash", { command: "cd sub && grep -n x f" }),
			"done",
		);
		await h.prompt("look around");
		const [chain, grep] = h.toolResults();
		expect(chain?.isError).toBe(false);
		expect(grep?.isError).toBe(false);
		expect(resultTexts(h)[1]).toContain("2:x marks the spot");
		expect(h.reviewerRequests()).toHaveLength(0);
		expect(verdictSources(h)).toEqual(["floor", "floor"]);
		expectNoLeak(h, ["cd sub", "grep -n", "a.txt"]);
	});

	it("allows rm, touch, cp and mv on named workspace files with no reviewer call, and reviews rm -r and .env", async () => {
		h = await start({
			files: { "reproduce.py": "print(1)\n", "a.py": "x = 1\n", ".env": "TOKEN=kept\n", "build/out.o": "obj\n" },
		});
		h.agent(
			callTool("bash", { command: "cp a.py a.py.orig && mv a.py.orig backup.py && touch pkg_init.py" }),
			callTool("bash", { command: "rm reproduce.py" }),
			callTool("bash", { command: "rm -r build" }),
			callTool("bash", { command: "rm .env" }),
			"done",
		);
		h.reviewer(verdict("deny", { rationale: "not asked" }), verdict("deny", { rationale: "a secret file" }));
		await h.prompt("tidy up");
		const [copied, removed, recursive, secret] = h.toolResults();
		expect(copied?.isError).toBe(false);
		expect(removed?.isError).toBe(false);
		expect(readFileSync(join(h.cwd, "backup.py"), "utf8")).toBe("x = 1\n");
		expect(existsSync(join(h.cwd, "a.py.orig"))).toBe(false);
		expect(existsSync(join(h.cwd, "pkg_init.py"))).toBe(true);
		expect(existsSync(join(h.cwd, "reproduce.py"))).toBe(false);
		expect(recursive?.isError).toBe(true);
		expect(secret?.isError).toBe(true);
		expect(existsSync(join(h.cwd, "build", "out.o"))).toBe(true);
		expect(readFileSync(join(h.cwd, ".env"), "utf8")).toBe("TOKEN=kept\n");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(verdictSources(h)).toEqual(["floor", "floor", "reviewer", "reviewer"]);
		expectNoLeak(h, ["reproduce.py", "backup.py", "rm -r", ".env"]);
	});

	it("allows `cat <<EOF > notes.md` in the workspace and reviews the same heredoc into ~/.bashrc", async () => {
		h = await start();
		h.agent(
			callTool("bash", { command: "cat <<EOF > notes.md\nhello notes\nEOF" }),
			callTool("bash", { command: "cat <<EOF > ~/.bashrc\nalias ls='rm -rf'\nEOF" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "writes a shell startup file" }));
		await h.prompt("write notes");
		const [workspace, bashrc] = h.toolResults();
		expect(workspace?.isError).toBe(false);
		expect(readFileSync(join(h.cwd, "notes.md"), "utf8")).toBe("hello notes\n");
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.requestText(h.reviewerRequests()[0]!)).toContain(".bashrc");
		expect(bashrc?.isError).toBe(true);
		expect(existsSync(join(sandboxHome, ".bashrc"))).toBe(false);
		expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
		expectNoLeak(h, ["notes.md", ".bashrc", "hello notes"]);
	});

	it("allows `sed -i '1r patch.py' f.py` with no reviewer call, and reviews `sed -i '1r .env' f.py`", async () => {
		h = await start({
			files: { "f.py": "first\nlast\n", "patch.py": "inserted\n", ".env": "API_TOKEN=sed-read-env-secret\n" },
		});
		h.agent(
			callTool("bash", { command: "sed -i '1r patch.py' f.py" }),
			callTool("bash", { command: "sed -i '1r .env' f.py" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "copies the .env into a source file" }));
		await h.prompt("insert the patch");
		expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(readFileSync(join(h.cwd, "f.py"), "utf8")).toBe("first\ninserted\nlast\n");
		expectNoLeak(h, ["sed-read-env-secret"]);
	});

	it("reviews `sed -i FILE -e SCRIPT f`, where GNU sed edits FILE too: `.env` and ~/.bashrc stay as they were", async () => {
		h = await start({ files: { "f.py": "first\n", ".env": "API_TOKEN=kept\n" } });
		writeFileSync(join(sandboxHome, ".bashrc"), "# rc\n");
		h.agent(
			callTool("bash", { command: "sed -i src/../.env -e '1i API_TOKEN=attacker' f.py" }),
			callTool("bash", { command: `sed -i ${sandboxHome}/.bashrc -e '1i echo planted' f.py` }),
			callTool("bash", { command: "sed -i f.py -e 's/first/changed/'" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }), verdict("deny", { risk_level: "high" }));
		await h.prompt("edit f.py");
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer", "floor"]);
		expect(readFileSync(join(h.cwd, ".env"), "utf8")).toBe("API_TOKEN=kept\n");
		expect(readFileSync(join(sandboxHome, ".bashrc"), "utf8")).toBe("# rc\n");
		expect(readFileSync(join(h.cwd, "f.py"), "utf8")).toBe("changed\n");
	});

	it("reviews a write past a cd that may fail and a heredoc that bash ends early; neither takes effect", async () => {
		h = await start();
		const parent = join(h.cwd, "..");
		h.agent(
			// `cd` fails, so `../escaped.txt` is the folder above the workspace, not `no/such/escaped.txt`.
			callTool("bash", { command: "cd no/such/dir; echo escaped >> ../escaped.txt" }),
			// bash ends the body at `EOF` (`$'EOF'` is quoted `EOF`), and then runs the next line.
			callTool("bash", { command: "cat <<$'EOF'\nbody\nEOF\necho escaped > ~/.bashrc\n$EOF" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }), verdict("deny", { risk_level: "high" }));
		await h.prompt("write it");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(h.toolResults().map((result) => result.isError)).toEqual([true, true]);
		expect(existsSync(join(parent, "escaped.txt"))).toBe(false);
		expect(existsSync(join(sandboxHome, ".bashrc"))).toBe(false);
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
	});

	it("reviews `$` before a line continuation and a heredoc that bash ends at `EOF)` in a substitution; neither program runs", async () => {
		h = await start();
		h.agent(
			// bash drops `\` + newline first, so this is `$(touch …)`, not a `$` and some text.
			callTool("bash", { command: `echo "$\\\n(touch ${sandboxHome}/continued)"` }),
			// Inside `<(…)` bash 5.2 ends the body at `EOF)`, closes the substitution, and runs the touch.
			callTool("bash", { command: `cat <(cat <<EOF\nx\nEOF)\ntouch ${sandboxHome}/heredoc\nEOF\n)` }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }), verdict("deny", { risk_level: "high" }));
		await h.prompt("print it");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
		expect(existsSync(join(sandboxHome, "continued"))).toBe(false);
		expect(existsSync(join(sandboxHome, "heredoc"))).toBe(false);
	});

	it("reviews ripgrep's preprocessor and hostname-program flags; neither program runs", async () => {
		h = await start({ files: { "hay.txt": "needle\n", "pre.sh": '#!/bin/sh\ntouch ran-program\ncat "$1"\n' } });
		chmodSync(join(h.cwd, "pre.sh"), 0o755);
		h.agent(
			callTool("bash", { command: "rg --pre ./pre.sh needle hay.txt" }),
			callTool("bash", { command: "rg --hostname-bin ./pre.sh needle hay.txt" }),
			"done",
		);
		h.reviewer(verdict("deny", { risk_level: "high" }), verdict("deny", { risk_level: "high" }));
		await h.prompt("search");
		expect(h.reviewerRequests()).toHaveLength(2);
		expect(h.toolResults().map((result) => result.isError)).toEqual([true, true]);
		expect(existsSync(join(h.cwd, "ran-program"))).toBe(false);
		expect(verdictSources(h)).toEqual(["reviewer", "reviewer"]);
	});

	it("allows `grep -rn` and `rg` of a folder with no secret in it, and reviews them where the tree holds `.env` or a key", async () => {
		h = await start({
			files: {
				"src/app.py": "API_KEY = os.environ['API_KEY']\n",
				"config/settings.py": "API_KEY = None\n",
				"config/.env": "API_KEY=very-secret-env-value\n",
				"deploy/keys/server.pem": "API_KEY very-secret-pem-body\n",
			},
		});
		h.agent(
			callTool("bash", { command: "grep -rn API_KEY src" }),
			callTool("bash", { command: "rg -n API_KEY src" }),
			callTool("bash", { command: "grep -rn API_KEY config" }),
			// rg skips the hidden `.env`, but reads the unhidden key below `deploy`.
			callTool("bash", { command: "rg -n API_KEY config" }),
			callTool("bash", { command: "rg -n API_KEY deploy" }),
			"done",
		);
		h.reviewer(verdict("deny", { rationale: "reads a secret" }), verdict("deny", { rationale: "reads a key" }));
		await h.prompt("where is API_KEY used?");
		expect(h.toolResults().map((result) => result.isError)).toEqual([false, false, true, false, true]);
		expect(resultTexts(h)[0]).toContain("src/app.py:1:");
		expect(resultTexts(h)[3]).toContain("settings.py");
		expect(resultTexts(h).join("\n")).not.toContain("very-secret");
		expect(verdictSources(h)).toEqual(["floor", "floor", "reviewer", "floor", "reviewer"]);
		expectNoLeak(h, ["API_KEY", "config", "deploy", "very-secret"]);
	});

	it("reviews `rg` where a glob, a file type or an ignore file's `!` line makes it read the hidden `.env`", async () => {
		h = await start({
			files: {
				"config/settings.py": "API_KEY = None\n",
				"config/.env": "API_KEY=very-secret-env-value\n",
				"other/settings.py": "API_KEY = None\n",
				"other/.env": "API_KEY=very-secret-other-value\n",
				"other/.ignore": "build/\n!.env\n",
			},
		});
		h.agent(
			callTool("bash", { command: "rg -n API_KEY config" }),
			callTool("bash", { command: "rg -n -g '*' API_KEY config" }),
			callTool("bash", { command: "rg -n --type-add 'dotenv:.env' -t dotenv API_KEY config" }),
			callTool("bash", { command: "rg -n API_KEY other" }),
			"done",
		);
		h.reviewer(...Array.from({ length: 3 }, () => verdict("deny", { rationale: "reads a secret" })));
		await h.prompt("where is API_KEY set?");
		expect(verdictSources(h)).toEqual(["floor", "reviewer", "reviewer", "reviewer"]);
		expect(resultTexts(h)[0]).toContain("settings.py");
		expect(resultTexts(h).join("\n")).not.toContain("very-secret");
		expectNoLeak(h, ["API_KEY", "very-secret"]);
	});

	it("lists the tree again after a tool call that may have written it: a `.env` the agent adds is then reviewed", async () => {
		h = await start({ files: { "src/app.py": "TOKEN = 1\n" } });
		h.agent(
			callTool("bash", { command: "grep -rn TOKEN src" }),
			callTool("write", { path: "src/.env", content: "TOKEN=very-secret-written\n" }),
			callTool("bash", { command: "grep -rn TOKEN src" }),
			"done",
		);
		// Writing `.env` is itself reviewed (a protected path): the reviewer allows it, then denies the search.
		h.reviewer(verdict("allow", { rationale: "asked for" }), verdict("deny", { rationale: "reads a secret" }));
		await h.prompt("find TOKEN");
		expect(h.toolResults().map((result) => result.isError)).toEqual([false, false, true]);
		expect(resultTexts(h)[2]).not.toContain("very-secret-written");
		expect(verdictSources(h)).toEqual(["floor", "reviewer", "reviewer"]);
	});

	it("reviews `cat ~/.bash_history`, and the denied read returns none of it", async () => {
		h = await start();
		h.agent(callTool("bash", { command: "cat ~/.bash_history" }), "done");
		h.reviewer(verdict("deny", { risk_level: "high", rationale: "reads shell history" }));
		await h.prompt("what did I run?");
		expect(h.reviewerRequests()).toHaveLength(1);
		const [result] = h.toolResults();
		expect(result?.isError).toBe(true);
		expect(resultTexts(h)[0]).not.toContain("very-secret-history-line");
		expectNoLeak(h, ["very-secret-history-line", ".bash_history"]);
	});

	it("decides `echo` followed by a 1 MiB word (too long for the floor: straight to review, no hang)", async () => {
		h = await start();
		const command = `echo ${"x".repeat(1024 * 1024)}`;
		h.agent(callTool("bash", { command }), "done");
		h.reviewer(verdict("deny", { risk_level: "low" }));
		await h.prompt("print a lot");
		const [result] = h.toolResults();
		expect(result?.isError).toBe(true);
		expect(h.reviewerRequests().length).toBeLessThanOrEqual(1);
		expect(verdictSources(h)).toHaveLength(1);
		expect(verdictSources(h)[0]).not.toBe("floor");
	});
});

describe("the deletion rules follow `cd`, in a real session", () => {
	it("`cd build && rm -rf *` goes to the reviewer and empties build/; `cd build; rm -rf *` is hard-denied", async () => {
		h = await start({ files: { "build/out.js": "built\n", "build/map/x.map": "{}\n", "src/app.ts": "app\n" } });
		h.agent(
			callTool("bash", { command: "cd build; rm -rf *" }),
			callTool("bash", { command: "cd build && rm -rf *" }),
			"done",
		);
		h.reviewer(verdict("allow", { risk_level: "medium", user_authorization: "high" }));
		await h.prompt("clean the build folder");
		const texts = resultTexts(h);
		// If that `cd` failed, `rm -rf *` would run in the project: denied at once, no model call, no override.
		expect(texts[0]).toContain("recursive deletion of the workspace root");
		expect(h.verdicts[0]).toMatchObject({ decision: "deny", source: "floor" });
		expect(h.reviewerRequests()).toHaveLength(1);
		expect(h.requestText(h.reviewerRequests()[0]!)).toContain("cd build && rm -rf *");
		expect(verdictSources(h)).toEqual(["floor", "reviewer"]);
		expect(existsSync(join(h.cwd, "build", "out.js"))).toBe(false);
		expect(existsSync(join(h.cwd, "build", "map"))).toBe(false);
		expect(existsSync(join(h.cwd, "build"))).toBe(true);
		expect(readFileSync(join(h.cwd, "src", "app.ts"), "utf8")).toBe("app\n");
	});
});
