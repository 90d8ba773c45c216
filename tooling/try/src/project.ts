// The small demo project every `pnpm try` session opens: a retry helper with a bug, its test and a README.

/** Files of the demo project, keyed by relative path. */
export function tryProjectFiles(): Record<string, string> {
	return {
		"package.json": `${JSON.stringify({ name: "retry-demo", version: "1.0.0", type: "module", scripts: { test: "node --test" } }, null, 2)}\n`,
		"README.md":
			"# retry-demo\n\nA tiny retry helper. `retry(fn, budget)` calls `fn` until it succeeds or the budget runs out.\n",
		"src/retry.ts": [
			"// Calls fn until it succeeds or the retry budget runs out.",
			"export async function retry<T>(fn: () => Promise<T>, budget = 3): Promise<T> {",
			"\tlet attempts = 0;",
			"\tfor (;;) {",
			"\t\ttry {",
			"\t\t\treturn await fn();",
			"\t\t} catch (error) {",
			"\t\t\t// Bug: after a compaction the budget is reset, so the loop never ends.",
			'\t\t\tif (String(error).includes("compaction")) attempts = 0;',
			"\t\t\tif (++attempts > budget) throw error;",
			"\t\t}",
			"\t}",
			"}",
			"",
		].join("\n"),
		"src/compaction.ts":
			"// Compacts a transcript when it overflows.\nexport function compact(lines: string[]): string[] {\n\treturn lines.slice(-100);\n}\n",
		"test/retry.test.ts": 'import { retry } from "../src/retry.ts";\n\nawait retry(async () => "ok");\n',
	};
}
