// The bash exploration classifier: a table of real-world command shapes with what counts (broad), what the seed's
// exemptions leave uncounted, and what is never counted, plus properties (total, composition never pure).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	BASH_NEVER_COUNTED_REASONS,
	type BashExplorationClassification,
	classifyBashExplorationCommand,
	EXPLORATION_EXEMPTIONS,
} from "../src/exploration/index.js";

const CWD = "/repo";

function label(decision: BashExplorationClassification): string {
	if (decision.kind === "broad") return `broad:${decision.category}`;
	if (decision.kind === "exempt") return `exempt:${decision.category}:${decision.exemption}`;
	return `never:${decision.reason}`;
}

/** [command, expected]: `broad:<category>`, `exempt:<category>:<exemption>` or `never:<reason>`; cwd `/repo`. */
const CASES: ReadonlyArray<readonly [string, string]> = [
	["rg -n foo src/", "exempt:grep:narrow-scope"],
	["rg -n foo", "broad:grep"],
	["rg foo .", "broad:grep"],
	["rg foo /repo", "broad:grep"],
	["rg foo ..", "broad:grep"],
	["rg foo /etc", "exempt:grep:outside-cwd"],
	["rg -e foo src lib", "exempt:grep:narrow-scope"],
	["rg -e foo", "broad:grep"],
	["rg -e foo . src", "broad:grep"],
	["rg --glob '*.ts' foo", "broad:grep"],
	["rg -g '*.py' foo src", "exempt:grep:narrow-scope"],
	["rg -t py foo", "broad:grep"],
	["rg -A 3 foo", "broad:grep"],
	["rg -A3 foo src", "exempt:grep:narrow-scope"],
	["rg --max-count=1 foo", "broad:grep"],
	["rg -l foo", "broad:grep"],
	["rg -c foo .", "broad:grep"],
	["rg foo | head -20", "exempt:grep:narrow-limit"],
	["rg foo | head -n 100", "broad:grep"],
	["rg foo | head -n 99", "exempt:grep:narrow-limit"],
	["rg foo | wc -l", "exempt:grep:narrow-limit"],
	["rg foo | sort | uniq", "broad:grep"],
	["rg --files", "broad:ls"],
	["rg --files src", "exempt:ls:narrow-scope"],
	["rg --files | rg test", "broad:ls"],
	["rg --files | head -50", "exempt:ls:narrow-limit"],
	["rg foo 2>/dev/null", "broad:grep"],
	["rg foo || true", "broad:grep"],
	["rg --version", "never:not-exploration"],
	["rg --pre cat foo", "never:not-exploration"],
	["rg foo > out.txt", "never:writes"],
	["rg foo | tee out.txt", "never:writes"],
	["rg foo $(git ls-files)", "never:dynamic"],
	['rg "$PATTERN"', "never:dynamic"],
	["grep -rn foo .", "broad:grep"],
	["grep -rn foo", "broad:grep"],
	["grep -r foo src", "exempt:grep:narrow-scope"],
	["grep -R foo -n src", "exempt:grep:narrow-scope"],
	['grep -R "TimeSeries" -n astropy | head -n 50', "exempt:grep:narrow-scope"],
	["grep -rn foo --include='*.py' .", "broad:grep"],
	["grep -rn --include=*.py foo src", "exempt:grep:narrow-scope"],
	["grep -rln foo /repo", "broad:grep"],
	["grep -rn foo /tmp", "exempt:grep:outside-cwd"],
	["grep --recursive foo", "broad:grep"],
	["grep -d recurse foo .", "broad:grep"],
	["grep -e foo -r .", "broad:grep"],
	["grep -rn -e foo -e bar src lib", "exempt:grep:narrow-scope"],
	["grep -rn foo . | head -20", "exempt:grep:narrow-limit"],
	["grep -rn foo . | wc -l", "exempt:grep:narrow-limit"],
	["grep -rn foo . | grep -v test", "broad:grep"],
	["grep -rn foo . 2>/dev/null", "broad:grep"],
	["grep -rn foo . 2>&1", "broad:grep"],
	["grep -n foo a.py", "exempt:grep:narrow-scope"],
	["grep -n foo a.py b.py", "exempt:grep:narrow-scope"],
	["grep foo *.py", "exempt:grep:narrow-scope"],
	["grep -c foo package.json", "exempt:grep:narrow-scope"],
	["grep foo", "never:not-exploration"],
	["egrep -r 'a|b' .", "broad:grep"],
	["fgrep -rn foo src", "exempt:grep:narrow-scope"],
	["grep -rn foo . > hits.txt", "never:writes"],
	["grep -rn foo . && npm test", "never:composed"],
	["git grep foo", "broad:grep"],
	["git grep -n foo", "broad:grep"],
	["git grep -n foo -- src", "exempt:grep:narrow-scope"],
	["git grep foo -- '*.py'", "broad:grep"],
	["git grep foo src/", "exempt:grep:narrow-scope"],
	["git grep -e foo", "broad:grep"],
	["git -C src grep foo", "exempt:grep:narrow-scope"],
	["git --no-pager grep foo", "broad:grep"],
	["git grep foo | head -5", "exempt:grep:narrow-limit"],
	["git ls-files", "broad:ls"],
	["git ls-files src", "exempt:ls:narrow-scope"],
	["git ls-files | grep test", "broad:ls"],
	["git ls-files | wc -l", "exempt:ls:narrow-limit"],
	["find .", "broad:find"],
	["find", "broad:find"],
	["find . -name '*.py'", "broad:find"],
	["find . -type f -name x", "broad:find"],
	["find /repo -name x", "broad:find"],
	["find src -name x", "exempt:find:narrow-scope"],
	["find src tests -name '*.py'", "exempt:find:narrow-scope"],
	["find /memory -type f -name '*.md' 2>/dev/null", "exempt:find:outside-cwd"],
	["find .. -name x", "broad:find"],
	["find -L . -name x", "broad:find"],
	// One level down is a listing, like `ls -a` (a twenty-seventh review); deeper, or with -exec, it is a search.
	["find . -maxdepth 1", "exempt:find:shallow-listing"],
	["find . -maxdepth 1 -type f -name '*.md'", "exempt:find:shallow-listing"],
	["find . -maxdepth 2", "broad:find"],
	["find . -maxdepth 1 -exec grep -l foo {} +", "broad:find"],
	// A glob reaches the folder above its first wildcard: `*` is the working directory.
	["grep -rn foo *", "broad:grep"],
	["rg -n foo *", "broad:grep"],
	["find * -name '*.ts'", "broad:find"],
	["grep -rn foo src/*", "exempt:grep:narrow-scope"],
	// A revision before `--` is the whole tree at that commit, not a path.
	["git grep foo HEAD", "broad:grep"],
	["git grep foo HEAD~2", "broad:grep"],
	["git grep foo HEAD -- src", "exempt:grep:narrow-scope"],
	["find . -name x -delete", "never:writes"],
	["find . -name '*.pyc' -exec rm {} \\;", "never:writes"],
	["find . -name '*.py' -exec grep -l foo {} +", "broad:find"],
	["find . -name '*.py' -exec grep -l foo {} \\;", "broad:find"],
	["find src -name '*.py' -exec grep -l foo {} +", "exempt:find:narrow-scope"],
	["find . -name x -execdir sh -c 'echo' \\;", "never:writes"],
	["find . -name x -ok rm {} \\;", "never:writes"],
	["find . -fprint out.txt", "never:writes"],
	["find . -name '*.py' | head -20", "exempt:find:narrow-limit"],
	["find . -name '*.py' | head -n 1000", "broad:find"],
	["find . -name '*.py' | wc -l", "exempt:find:narrow-limit"],
	["find . -name '*.py' | xargs grep foo", "broad:find"],
	["find . -name '*.py' | xargs grep foo | head -10", "exempt:find:narrow-limit"],
	["find . -name '*.py' | xargs rm", "never:writes"],
	["find . -name '*.py' | xargs python", "never:not-exploration"],
	["find . -name x | sort", "broad:find"],
	["find . -name x > list.txt", "never:writes"],
	["ls -R", "broad:ls"],
	["ls -R .", "broad:ls"],
	["ls -lR", "broad:ls"],
	["ls --recursive", "broad:ls"],
	["ls -R src", "exempt:ls:narrow-scope"],
	["ls -R /tmp", "exempt:ls:outside-cwd"],
	["ls -R | head -30", "exempt:ls:narrow-limit"],
	["ls", "exempt:ls:shallow-listing"],
	["ls -la", "exempt:ls:shallow-listing"],
	["ls -la src", "exempt:ls:shallow-listing"],
	["ls /repo", "exempt:ls:shallow-listing"],
	["ls -d */", "exempt:ls:shallow-listing"],
	["ls && npm test", "never:composed"],
	["ls; pytest", "never:composed"],
	["ls > files.txt", "never:writes"],
	["tree", "broad:ls"],
	["tree .", "broad:ls"],
	["tree src", "exempt:ls:narrow-scope"],
	["tree -L 1", "exempt:ls:shallow-listing"],
	["tree -L 3", "broad:ls"],
	["tree -o out.txt", "never:writes"],
	["fd", "broad:ls"],
	["fd -e py", "broad:ls"],
	["fd foo src", "exempt:ls:narrow-scope"],
	["fd foo .", "broad:ls"],
	["fdfind foo", "broad:ls"],
	["fd -x rm", "never:writes"],
	["fd -e py -x wc -l", "broad:ls"],
	["cat a.ts", "broad:read"],
	["cat src/big.ts", "broad:read"],
	["cat -n src/big.ts", "broad:read"],
	["cat package.json", "exempt:read:excluded-path"],
	["cat pnpm-lock.yaml", "exempt:read:excluded-path"],
	["cat AGENTS.md", "exempt:read:excluded-path"],
	["cat docs/guide.md", "exempt:read:excluded-path"],
	["cat node_modules/x/index.js", "exempt:read:excluded-path"],
	["cat dist/index.js", "exempt:read:excluded-path"],
	["cat packages/a/package.json", "exempt:read:excluded-path"],
	["cat package.json src/a.ts", "broad:read"],
	["cat README.md", "broad:read"],
	["cat /etc/hosts", "broad:read"],
	["cat src/a.ts | head -50", "exempt:read:small-read"],
	["cat src/a.ts | head -n 401", "broad:read"],
	["cat src/a.ts | grep foo", "exempt:grep:narrow-scope"],
	["cat src/a.ts | wc -l", "exempt:read:small-read"],
	["cat > a.py <<'EOF'\nprint(1)\nEOF", "never:writes"],
	["cat <<EOF > a.py\nx\nEOF", "never:writes"],
	["cat a.ts >> b.ts", "never:writes"],
	["cat", "never:not-exploration"],
	["head a.ts", "exempt:read:small-read"],
	["head -n 50 a.ts", "exempt:read:small-read"],
	["head -50 a.ts", "exempt:read:small-read"],
	["head -n 400 a.ts", "exempt:read:small-read"],
	["head -n 401 a.ts", "broad:read"],
	["head -n 5000 a.ts", "broad:read"],
	["head -c 1000 a.ts", "exempt:read:small-read"],
	["head -c 100000 a.ts", "broad:read"],
	["head -n 5000 package.json", "exempt:read:excluded-path"],
	["tail a.log", "exempt:read:small-read"],
	["tail -n 100 a.log", "exempt:read:small-read"],
	["tail -n +1 a.ts", "broad:read"],
	["tail -f a.log", "never:not-exploration"],
	["tail -n 20 a.ts b.ts", "exempt:read:small-read"],
	["sed -n '1,400p' a.ts", "exempt:read:small-read"],
	["sed -n '1,401p' a.ts", "broad:read"],
	["sed -n '1,$p' a.ts", "broad:read"],
	["sed -n 10p a.ts", "exempt:read:small-read"],
	["sed -n '10,20p;30,40p' a.ts", "exempt:read:small-read"],
	["sed -n '100,+50p' a.ts", "exempt:read:small-read"],
	["sed -n -e '1,50p' a.ts", "exempt:read:small-read"],
	["sed -n '/def foo/p' a.py", "exempt:grep:narrow-scope"],
	["sed -n '1,2000p' docs/a.md", "exempt:read:excluded-path"],
	["sed 's/a/b/' a.ts", "never:not-exploration"],
	["sed -i 's/a/b/' a.ts", "never:writes"],
	["sed -i.bak 's/a/b/' a.ts", "never:writes"],
	["sed -n '1,20w out.txt' a.ts", "never:writes"],
	["cd src && sed -n '1,50p' a.ts", "exempt:read:small-read"],
	["nl a.py", "broad:read"],
	["nl -ba a.py", "broad:read"],
	["nl -ba a.py | sed -n '10,80p'", "exempt:read:small-read"],
	["nl -ba a.py | sed -n '1,900p'", "broad:read"],
	["nl -ba a.py | head -100", "exempt:read:small-read"],
	["nl -ba package.json", "exempt:read:excluded-path"],
	["bat a.ts", "broad:read"],
	["bat -r 10:40 a.ts", "exempt:read:small-read"],
	["bat --line-range 1:1000 a.ts", "broad:read"],
	["bat -r 10: a.ts", "broad:read"],
	["batcat a.ts", "broad:read"],
	["cd src && rg foo", "exempt:grep:narrow-scope"],
	["cd src && grep -rn foo .", "exempt:grep:narrow-scope"],
	["cd /repo && grep -rn foo .", "broad:grep"],
	["cd /repo && rg foo", "broad:grep"],
	["cd .. && rg foo", "broad:grep"],
	["cd /tmp && ls -R", "exempt:ls:outside-cwd"],
	["cd /repo/src && find . -name x", "exempt:find:narrow-scope"],
	["cd src && ls -R && cd .. && cat a.ts", "broad:read"],
	["cd && ls -R", "exempt:ls:outside-cwd"],
	["cd ~ && ls -R", "exempt:ls:outside-cwd"],
	["cd src", "never:not-exploration"],
	["cd src && npm test", "never:not-exploration"],
	["pwd && ls -R", "broad:ls"],
	["echo start && grep -rn foo .", "broad:grep"],
	["ls -la && cat a.ts", "broad:read"],
	["ls -la && cat package.json", "exempt:ls:shallow-listing"],
	["git status && git diff", "never:not-exploration"],
	["git status && rg foo", "broad:grep"],
	["git log --oneline -5", "never:not-exploration"],
	["git diff src/a.ts", "never:not-exploration"],
	["git show HEAD", "never:not-exploration"],
	["git stash list", "never:not-exploration"],
	["git stash", "never:writes"],
	["git add -A && git diff --cached", "never:writes"],
	["git commit -m x", "never:writes"],
	["git checkout -b x", "never:writes"],
	["git branch -D x", "never:writes"],
	["git branch", "never:not-exploration"],
	["wc -l a.ts", "never:not-exploration"],
	["wc -l a.ts && rg foo", "broad:grep"],
	["npm test", "never:not-exploration"],
	["pnpm build", "never:not-exploration"],
	["make", "never:not-exploration"],
	["cargo build", "never:not-exploration"],
	["pytest -x tests/", "never:not-exploration"],
	["python -m pytest tests", "never:not-exploration"],
	["python x.py", "never:not-exploration"],
	["python - <<'EOF'\nprint(1)\nEOF", "never:not-exploration"],
	["node -e 'console.log(1)'", "never:not-exploration"],
	["rm -rf build", "never:writes"],
	["rm a && ls", "never:writes"],
	["mkdir -p out && ls", "never:writes"],
	["touch a.ts", "never:writes"],
	["mv a b", "never:writes"],
	["cp a b", "never:writes"],
	["chmod +x run.sh", "never:writes"],
	["echo hi > a.txt", "never:writes"],
	["echo hi", "never:not-exploration"],
	["printf 'x\n' >> a.txt", "never:writes"],
	["ls && npm test", "never:composed"],
	["rg foo && make", "never:composed"],
	["cat a.ts; python a.py", "never:composed"],
	["find . -name x && pytest", "never:composed"],
	["grep -rn foo . || npm run build", "never:composed"],
	["ls &", "never:composed"],
	["rg foo &", "never:composed"],
	["(cd src && rg foo)", "never:composed"],
	["{ rg foo; }", "never:composed"],
	["for f in *.py; do cat $f; done", "never:composed"],
	["if true; then ls -R; fi", "never:composed"],
	["while read l; do echo $l; done < a.txt", "never:composed"],
	["! rg foo", "never:composed"],
	["rg foo $(pwd)", "never:dynamic"],
	["cat $FILE", "never:dynamic"],
	["cat `ls`", "never:dynamic"],
	["ls -R $DIR", "never:dynamic"],
	["diff <(cat a) <(cat b)", "never:dynamic"],
	["cat 'unterminated", "never:unparseable"],
	['rg "foo', "never:unparseable"],
	["case x in a) ls;; esac", "never:unparseable"],
	["", "never:not-exploration"],
	["timeout 10 rg foo", "broad:grep"],
	["command ls -R", "broad:ls"],
	["time grep -rn foo .", "broad:grep"],
	["sudo find / -name x", "never:not-exploration"],
	["env rg foo", "never:not-exploration"],
	["FOO=1 rg foo", "broad:grep"],
	["/usr/bin/rg foo", "broad:grep"],
	["./rg foo", "broad:grep"],
	["less a.ts", "never:not-exploration"],
	["vim a.ts", "never:not-exploration"],
	["bash -c 'rg foo'", "never:dynamic"],
	["sh -c 'ls -R'", "never:dynamic"],
	["rg foo | awk '{print $1}'", "broad:grep"],
	["rg foo | awk '{system(\"rm \" $1)}'", "never:not-exploration"],
	["rg foo | jq .", "broad:grep"],
	["cat a.json | jq .", "broad:read"],
	["rg foo | sed 's/a/b/'", "broad:grep"],
	["rg foo | sed -i 's/a/b/' x", "never:writes"],
	["cd - && ls -R", "never:dynamic"],
	["cd ~/proj && rg foo", "exempt:grep:outside-cwd"],
	["sed -n 'w out.txt' a.ts", "never:writes"],
	["sed -n '1,5p' a.ts b.ts", "exempt:read:small-read"],
	["sed -n '/def foo/,+5p' a.py", "exempt:grep:narrow-scope"],
	["sed -n '/def foo/,$p' a.py", "exempt:grep:narrow-scope"],
];

describe("classifyBashExplorationCommand", () => {
	it("has at least 150 cases, covering every category, exemption and never-counted reason", () => {
		expect(CASES.length).toBeGreaterThanOrEqual(150);
		const labels = new Set(CASES.map(([, expected]) => expected));
		for (const category of ["read", "grep", "find", "ls"]) expect(labels).toContain(`broad:${category}`);
		for (const reason of BASH_NEVER_COUNTED_REASONS) expect(labels).toContain(`never:${reason}`);
		const exemptions = new Set(CASES.flatMap(([, e]) => (e.startsWith("exempt:") ? [e.split(":")[2]] : [])));
		for (const exemption of EXPLORATION_EXEMPTIONS.filter((e) => e !== "invalid-input")) {
			expect(exemptions).toContain(exemption);
		}
	});

	it.each(CASES)("%j is %s", (command, expected) => {
		expect(label(classifyBashExplorationCommand(command, CWD, 400))).toBe(expected);
	});

	it("the issue's tricky cases", () => {
		expect(classifyBashExplorationCommand("rg -n foo src/", CWD, 400)).toEqual({
			kind: "exempt",
			category: "grep",
			exemption: "narrow-scope",
		});
		expect(classifyBashExplorationCommand("cat package.json", CWD, 400)).toEqual({
			kind: "exempt",
			category: "read",
			exemption: "excluded-path",
		});
		expect(classifyBashExplorationCommand("find . -name x -delete", CWD, 400)).toEqual({
			kind: "never",
			reason: "writes",
		});
		expect(classifyBashExplorationCommand("ls && npm test", CWD, 400)).toEqual({ kind: "never", reason: "composed" });
	});

	it("applies smallReadMaxLines to read windows", () => {
		expect(label(classifyBashExplorationCommand("sed -n '1,200p' a.ts", CWD, 200))).toBe("exempt:read:small-read");
		expect(label(classifyBashExplorationCommand("sed -n '1,201p' a.ts", CWD, 200))).toBe("broad:read");
		expect(label(classifyBashExplorationCommand("head -n 20 a.ts", CWD, 10))).toBe("broad:read");
		expect(label(classifyBashExplorationCommand("head a.ts", CWD, 10))).toBe("exempt:read:small-read");
	});

	it("a broad exploration next to anything that is not exploration is never counted", () => {
		const broad = CASES.filter(([, expected]) => expected.startsWith("broad:")).map(([command]) => command);
		expect(broad.length).toBeGreaterThan(40);
		for (const command of broad) {
			for (const other of ["npm test", "python x.py", "make build"]) {
				expect(label(classifyBashExplorationCommand(`${command} && ${other}`, CWD, 400))).toBe("never:composed");
			}
			expect(classifyBashExplorationCommand(`${command} && rm -rf build`, CWD, 400)).toEqual({
				kind: "never",
				reason: "writes",
			});
		}
	});

	it("is total: never throws and always returns one of its labels, whatever the input", () => {
		const labels = /^(broad:(read|grep|find|ls)|exempt:(read|grep|find|ls):[a-z-]+|never:[a-z-]+)$/;
		fc.assert(
			fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 40 }), fc.integer(), (command, cwd, max) => {
				expect(label(classifyBashExplorationCommand(command, cwd, max))).toMatch(labels);
			}),
			{ numRuns: 500 },
		);
		const words = fc.constantFrom(
			"rg",
			"grep",
			"-rn",
			"find",
			".",
			"-delete",
			"ls",
			"-R",
			"&&",
			"|",
			";",
			"cat",
			"x",
			">",
			"'",
			'"',
			"$(",
			")",
			"sed",
			"-n",
			"1,5p",
			"head",
			"-50",
			"cd",
			"src",
			"\n",
		);
		fc.assert(
			fc.property(fc.array(words, { maxLength: 12 }), (parts) => {
				expect(label(classifyBashExplorationCommand(parts.join(" "), CWD, 400))).toMatch(labels);
			}),
			{ numRuns: 1000 },
		);
		for (const odd of [undefined, null, 42, {}, ["ls"], "x".repeat(9000)]) {
			expect(classifyBashExplorationCommand(odd, CWD, 400)).toEqual({ kind: "never", reason: "unparseable" });
		}
	});
});
