// Tests of the one bash syntax tree (@pi-policy/policy-kernel/bash): structure, words, redirects, heredocs, nested
// scripts, failures and bounds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	type BashList,
	MAX_BASH_COMMAND_CHARS,
	MAX_BASH_NESTING,
	parseBashSyntax,
	placedSimpleCommandsOf,
	simpleCommandsOf,
} from "../src/bash/index.js";

function tree(command: string): BashList {
	const parsed = parseBashSyntax(command);
	if (!parsed.ok) throw new Error(`${parsed.reason}: ${parsed.detail}`);
	return parsed.tree;
}

/** Each simple command's words, literal values or `<kinds:value>` for non-literal words. */
function words(command: string): string[][] {
	return simpleCommandsOf(tree(command)).map((cmd) =>
		cmd.words.map((word) => word.literal ?? `<${word.expansions.join(",")}:${word.value}>`),
	);
}

describe("parseBashSyntax: structure", () => {
	it.each<[string, string[][]]>([
		["ls -la", [["ls", "-la"]]],
		['echo "rm -rf /"', [["echo", "rm -rf /"]]],
		["echo 'a  b' c", [["echo", "a  b", "c"]]],
		["echo a\\ b", [["echo", "a b"]]],
		["ls; rm -rf x", [["ls"], ["rm", "-rf", "x"]]],
		["a && b || c", [["a"], ["b"], ["c"]]],
		[
			"cat x | grep y |& wc -l",
			[
				["cat", "x"],
				["grep", "y"],
				["wc", "-l"],
			],
		],
		[
			"echo $(rm -rf /)",
			[
				["echo", "<command-substitution:$(rm -rf /)>"],
				["rm", "-rf", "/"],
			],
		],
		["echo `whoami`", [["echo", "<command-substitution:`whoami`>"], ["whoami"]]],
		['echo "$(date) ok"', [["echo", "<command-substitution:$(date) ok>"], ["date"]]],
		["echo '$(date)'", [["echo", "$(date)"]]],
		["(cd src && ls)", [["cd", "src"], ["ls"]]],
		["{ ls; pwd; }", [["ls"], ["pwd"]]],
		["FOO=1 ls", [["ls"]]],
		["ls # rm -rf /", [["ls"]]],
		["echo $'a\\nb'", [["echo", "a\nb"]]],
		["if true; then ls; elif false; then pwd; else id; fi", [["true"], ["ls"], ["false"], ["pwd"], ["id"]]],
		[
			"while read l; do echo x; done < f",
			[
				["read", "l"],
				["echo", "x"],
			],
		],
		["for f in a b; do cat $f; done", [["cat", "<parameter-expansion:$f>"]]],
		["ls *.ts ~/x {a,b} {}", [["ls", "<glob:*.ts>", "<tilde:~/x>", "<brace:{a,b}>", "{}"]]],
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
		["echo $((1 + 2)) ${HOME}", [["echo", "<arithmetic:$((1 + 2))>", "<parameter-expansion:${HOME}>"]]],
		["ls \\\n -la", [["ls", "-la"]]],
		["! grep -q x f", [["grep", "-q", "x", "f"]]],
	])("%j", (command, expected) => {
		expect(words(command)).toEqual(expected);
	});

	it("keeps statements, operators, pipelines and terminators", () => {
		const list = tree("a | b && c; d &\ne");
		expect(list.statements.map((s) => [s.operators, s.terminator])).toEqual([
			[["&&"], ";"],
			[[], "&"],
			[[], undefined],
		]);
		const first = list.statements[0];
		expect(first?.pipelines[0]?.commands.length).toBe(2);
		expect(first?.pipelines[0]?.operators).toEqual(["|"]);
	});

	it("keeps assignments with their values", () => {
		const [cmd] = simpleCommandsOf(tree("A=1 B+=$(pwd) C= env"));
		expect(cmd?.assignments.map((a) => [a.name, a.append, a.value.literal ?? null])).toEqual([
			["A", false, "1"],
			["B", true, null],
			["C", false, ""],
		]);
		expect(cmd?.words.map((w) => w.value)).toEqual(["env"]);
	});

	it("reads redirects with their fd, op and target", () => {
		const [cmd] = simpleCommandsOf(tree("cmd 2>&1 >out.txt >>log <in &>all 3<>rw <<<'here'"));
		expect(cmd?.redirects.map((r) => [r.op, r.fd ?? null, r.target.value])).toEqual([
			[">&", 2, "1"],
			[">", null, "out.txt"],
			[">>", null, "log"],
			["<", null, "in"],
			["&>", null, "all"],
			["<>", 3, "rw"],
			["<<<", null, "here"],
		]);
	});

	it("reads heredocs: delimiter, quoting, tab stripping, body and its expansions", () => {
		const [cmd] = simpleCommandsOf(tree("cat <<EOF > notes.md\nhello $(whoami)\nEOF\n"));
		const heredoc = cmd?.redirects[0]?.heredoc;
		expect(heredoc).toMatchObject({ delimiter: "EOF", quoted: false, stripTabs: false, body: "hello $(whoami)\n" });
		expect(heredoc?.expansions).toEqual(["command-substitution"]);
		expect(cmd?.redirects[1]).toMatchObject({ op: ">", target: { value: "notes.md" } });
		const placed = placedSimpleCommandsOf(tree("cat <<EOF\n$(id)\nEOF"));
		expect(placed.map((p) => [p.command.words[0]?.value, p.place])).toEqual([
			["cat", "top"],
			["id", "heredoc"],
		]);
		const [quoted] = simpleCommandsOf(tree("cat <<-'E' | wc -l\n\tbody $(x)\n\tE\necho done"));
		expect(quoted?.redirects[0]?.heredoc).toMatchObject({ quoted: true, stripTabs: true, body: "body $(x)\n" });
		expect(quoted?.redirects[0]?.heredoc?.expansions).toEqual([]);
		expect(words("cat <<-'E' | wc -l\n\tbody $(x)\n\tE\necho done")).toEqual([["cat"], ["wc", "-l"], ["echo", "done"]]);
	});

	it("parses literal bash -c / sh -c / bash -lc scripts as nested trees", () => {
		const [outer] = placedSimpleCommandsOf(tree("bash -lc 'cd sub && ls'"));
		expect(outer?.command.script?.ok).toBe(true);
		expect(words("bash -lc 'cd sub && ls'")).toEqual([["bash", "-lc", "cd sub && ls"], ["cd", "sub"], ["ls"]]);
		expect(placedSimpleCommandsOf(tree('/bin/sh -c "pwd"')).map((p) => p.place)).toEqual(["top", "script"]);
		const [dynamic] = simpleCommandsOf(tree('bash -c "$CMD"'));
		expect(dynamic?.script).toEqual({ ok: false, shell: "bash", reason: "unsupported" });
		const [broken] = simpleCommandsOf(tree("sh -c 'echo \"x'"));
		expect(broken?.script).toEqual({ ok: false, shell: "sh", reason: "syntax-error" });
		expect(simpleCommandsOf(tree("bash script.sh"))[0]?.script).toBeUndefined();
		expect(simpleCommandsOf(tree("zsh -c 'ls'"))[0]?.script).toBeUndefined();
	});

	it("lists substitutions and process substitutions with their place", () => {
		expect(
			placedSimpleCommandsOf(tree("diff <(ls a) >(wc) $(pwd)")).map((p) => [p.command.words[0]?.value, p.place]),
		).toEqual([
			["diff", "top"],
			["ls", "substitution"],
			["wc", "substitution"],
			["pwd", "substitution"],
		]);
	});
});

describe("parseBashSyntax: failures", () => {
	it.each<[string, string]>([
		["echo 'unterminated", "syntax-error"],
		['echo "unterminated', "syntax-error"],
		["echo $(ls", "syntax-error"],
		["echo `ls", "syntax-error"],
		["(ls", "syntax-error"],
		["ls)", "syntax-error"],
		["cat <<EOF\nno end", "syntax-error"],
		["| ls", "syntax-error"],
		["ls &&", "syntax-error"],
		["ls >", "syntax-error"],
		["then ls", "syntax-error"],
		["if true; then ls", "syntax-error"],
		["case x in a) ls;; esac", "unsupported"],
		["[[ -f x ]]", "unsupported"],
		["(( x++ ))", "unsupported"],
		["f() { ls; }", "unsupported"],
		["a=(1 2)", "unsupported"],
		// bash drops `\` + newline first: these are `$(touch x)`, `$HOME`, `$'.env'` and `"$(touch x)"`.
		["echo $\\\n(touch x)", "unsupported"],
		["cat $\\\nHOME/.aws/credentials", "unsupported"],
		["cat $\\\n'.env'", "unsupported"],
		['echo "$\\\n(touch x)"', "unsupported"],
		["cat <<EOF\n$\\\n(touch x)\nEOF", "unsupported"],
		// Inside a substitution bash 5.2 ends the body at `EOF)` and runs what follows.
		["cat <(cat <<EOF\nx\nEOF)\ntouch pwned\nEOF\n)", "unsupported"],
		["echo $(cat <<EOF\nx\nEOF)\ntouch pwned\nEOF\n)", "unsupported"],
	])("%j → %s, with a detail that does not quote the input", (command, reason) => {
		const parsed = parseBashSyntax(command);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) {
			expect(parsed.reason).toBe(reason);
			expect(parsed.detail).not.toContain(command);
		}
	});

	it("refuses over-long input and too deep nesting", () => {
		expect(parseBashSyntax(`echo ${"a".repeat(MAX_BASH_COMMAND_CHARS)}`)).toMatchObject({
			ok: false,
			reason: "too-long",
		});
		const deep = `echo ${"$(".repeat(MAX_BASH_NESTING + 1)}x${")".repeat(MAX_BASH_NESTING + 1)}`;
		expect(parseBashSyntax(deep)).toMatchObject({ ok: false, reason: "too-deep" });
		const deepSubshell = `${"("
			.repeat(MAX_BASH_NESTING + 1)
			.split("")
			.join(" ")} ls ${")".repeat(MAX_BASH_NESTING + 1)}`;
		expect(parseBashSyntax(deepSubshell)).toMatchObject({ ok: false, reason: "too-deep" });
		const backticks = "echo `echo \\`echo \\\\\\`id\\\\\\`\\``";
		expect(parseBashSyntax(backticks).ok).toBe(true);
		expect(parseBashSyntax(42 as unknown as string)).toMatchObject({ ok: false, reason: "not-a-string" });
	});

	it("parses pathological but legal input under the cap: 5,000 pipes and a 15 KiB word; a 64 KiB word is too long", () => {
		const pipes = Array.from({ length: 5_000 }, () => "a").join("|");
		expect(tree(pipes).statements[0]?.pipelines[0]?.commands.length).toBe(5_000);
		expect(words(`echo ${"a".repeat(15 * 1024)}`)[0]?.[1]?.length).toBe(15 * 1024);
		expect(parseBashSyntax(`echo ${"a".repeat(65_536)}`)).toMatchObject({ ok: false, reason: "too-long" });
	});

	it("marks ANSI-C strings with numeric escapes as not literal", () => {
		expect(words("echo $'\\x72\\x6d' $'a\\tb'")).toEqual([["echo", "<escape:x72x6d>", "a\tb"]]);
	});

	it("never throws on arbitrary input", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 200 }), (text) => {
				const parsed = parseBashSyntax(text);
				expect(typeof parsed.ok).toBe("boolean");
			}),
			{ numRuns: 1000 },
		);
	});

	it("never splits a single-quoted argument", () => {
		fc.assert(
			fc.property(
				fc.string({ maxLength: 60 }).filter((s) => !s.includes("'")),
				(inner) => {
					expect(words(`echo '${inner}'`)).toEqual([["echo", inner]]);
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("the @pi-policy/policy-kernel/bash subpath", () => {
	it("exports the same parser the guardian floor uses", async () => {
		const subpath = await import("@pi-policy/policy-kernel/bash");
		expect(subpath.parseBashSyntax).toBe(parseBashSyntax);
		expect(subpath.simpleCommandsOf).toBe(simpleCommandsOf);
	});
});
