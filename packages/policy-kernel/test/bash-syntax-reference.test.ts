// The kernel's bash parser against mvdan/sh (sh-syntax, WASM): on generated commands and on real agent commands,
// both parsers agree on command boundaries, words, operators, redirects and heredocs; where the kernel's parser is
// not sure (it rejects what the reference accepts), the floor sends the command to review.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadAgentBashCommands } from "../../../tooling/bench/src/corpora.ts";
import { compareWithReference } from "../../../tooling/bench/src/workloads/guardian-review-parser.ts";
import { applyGuardianDefaults, decideBashFloor, floorContextFor } from "../src/guardian/index.js";

const context = floorContextFor(applyGuardianDefaults({ mode: "enforce" }), "/w", "/home/u", { gitConfig: "safe" });

const plainWord = fc.constantFrom(
	"ls",
	"cat",
	"a.txt",
	"src/x.py",
	"-n",
	"--flag=v",
	"x=1",
	"10,20p",
	"*.ts",
	"~/x",
	"{a,b}",
	"{}",
	"#not-comment",
);
const quotedWord = fc.oneof(
	fc.stringMatching(/^[a-z $|;&<>()*]{0,8}$/).map((s) => `'${s}'`),
	fc.stringMatching(/^[a-z |;&<>()*]{0,8}$/).map((s) => `"${s}"`),
	// biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
	fc.constantFrom('"$HOME/x"', '"a\\"b"', "a\\ b", "$'a\\tb'", '"$(pwd)"', "${X:-y}", "$1", "`date`", "$((1+2))"),
);
const word = fc.oneof({ weight: 3, arbitrary: plainWord }, { weight: 2, arbitrary: quotedWord });
const redirect = fc.oneof(
	word.map((w) => `> ${w}`),
	fc.constantFrom("2>&1", ">>log", "</dev/null", "&>out", "2>/dev/null", "<<<'s'", "3<>f", ">|f"),
);
const simple = fc
	.tuple(
		fc.array(fc.constantFrom("A=1", "B=$(x)", "LC_ALL=C"), { maxLength: 1 }),
		fc.constantFrom("ls", "cat", "grep", "echo", "sed", "git"),
		fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: redirect }), { maxLength: 4 }),
	)
	.map(([assignments, name, rest]) => [...assignments, name, ...rest].join(" "));

const command: fc.Arbitrary<string> = fc.letrec<{ cmd: string; pipeline: string; list: string }>((tie) => ({
	cmd: fc.oneof(
		{ weight: 6, arbitrary: simple },
		{ weight: 1, arbitrary: tie("list").map((l) => `( ${l} )`) },
		{ weight: 1, arbitrary: tie("list").map((l) => `{ ${l}; }`) },
		{ weight: 1, arbitrary: fc.tuple(tie("pipeline"), tie("list")).map(([c, b]) => `if ${c}; then ${b}; fi`) },
		{ weight: 1, arbitrary: fc.tuple(word, tie("list")).map(([w, b]) => `for f in ${w}; do ${b}; done`) },
		{
			weight: 1,
			arbitrary: fc.constantFrom("cat <<EOF\nbody $x\nEOF\n", "cat <<'E' > n.md\n$(not)\nE\n", "cat <<-T\n\tx\n\tT\n"),
		},
		{ weight: 1, arbitrary: simple.map((s) => `bash -lc '${s.replace(/'/g, "")}'`) },
	),
	pipeline: fc
		.array(tie("cmd"), { minLength: 1, maxLength: 3 })
		.chain((cmds) =>
			fc
				.array(fc.constantFrom(" | ", " |& "), { minLength: cmds.length - 1, maxLength: cmds.length - 1 })
				.map((ops) => cmds.reduce((acc, c, i) => (i === 0 ? c : `${acc}${ops[i - 1]}${c}`), "")),
		),
	list: fc.array(tie("pipeline"), { minLength: 1, maxLength: 3 }).chain((pipes) =>
		fc
			.array(fc.constantFrom(" && ", " || ", "; ", "\n", " & "), {
				minLength: pipes.length - 1,
				maxLength: pipes.length - 1,
			})
			.map((ops) => pipes.reduce((acc, p, i) => (i === 0 ? p : `${acc}${ops[i - 1]}${p}`), "")),
	),
})).list;

describe("the kernel parser agrees with mvdan/sh", () => {
	it("on generated commands: never both accepting and disagreeing; when the kernel is unsure, the floor reviews", async () => {
		const outcomes: Record<string, number> = {};
		await fc.assert(
			fc.asyncProperty(command, async (text) => {
				const result = await compareWithReference(text);
				outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
				expect([text, result.outcome, result.detail]).toEqual([
					text,
					expect.not.stringMatching(/^disagree$/),
					result.detail,
				]);
				if (result.outcome === "kernel-unsure") expect(decideBashFloor(text, "always", context).kind).toBe("review");
			}),
			{ numRuns: 250, seed: 1313 },
		);
		expect(outcomes.agree ?? 0).toBeGreaterThan(200);
	});

	it("on a sample of real agent commands", async () => {
		const commands = loadAgentBashCommands()
			.filter((_, index) => index % 60 === 0)
			.map((row) => row.command);
		expect(commands.length).toBeGreaterThan(100);
		let agreed = 0;
		for (const text of commands) {
			const result = await compareWithReference(text);
			expect(result.outcome === "disagree" ? result.detail : "ok").toBe("ok");
			if (result.outcome === "kernel-unsure") expect(decideBashFloor(text, "always", context).kind).toBe("review");
			if (result.outcome === "agree") agreed++;
		}
		expect(agreed / commands.length).toBeGreaterThan(0.98);
	});
});
