import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	canonicalToolCall,
	classifyDeclaredRange,
	classifyResultEligibility,
	DEFAULT_SHUNT_LIMITS,
	decidePreCall,
	isJsonText,
	narrowPowerShellHeadCommand,
	parsePowerShellHeadCommand,
} from "../src/shunt/index.js";

const limits = DEFAULT_SHUNT_LIMITS;
const pre = (toolName: string, input: unknown, builtin = true) => decidePreCall({ toolName, input, builtin, limits });

describe("decidePreCall: declared read ranges", () => {
	it("pins a full read at 350 and 351 declared lines", () => {
		expect(pre("read", { path: "a", limit: 350 })).toMatchObject({ kind: "within", maxLines: 350 });
		expect(pre("read", { path: "a", limit: 351 })).toMatchObject({
			kind: "oversized",
			maxLines: 350,
			range: { tool: "read", scope: "full", lines: 351 },
		});
	});

	it("pins a read with an offset at 250 and 251 declared lines", () => {
		expect(pre("read", { path: "a", offset: 10, limit: 250 })).toMatchObject({ kind: "within", maxLines: 250 });
		expect(pre("read", { path: "a", offset: 1, limit: 251 })).toMatchObject({
			kind: "oversized",
			range: { scope: "targeted", lines: 251 },
		});
	});

	it("never pre-blocks an undeclared read, another tool, or a same-named non-built-in read", () => {
		expect(pre("read", { path: "a" })).toMatchObject({ kind: "within" });
		expect(pre("bash", { command: "cat big.txt" })).toEqual({ kind: "pass" });
		expect(pre("grep", { pattern: "x", limit: 100000 })).toEqual({ kind: "pass" });
		expect(pre("read", { path: "a", limit: 9999 }, false)).toEqual({ kind: "uncovered", tool: "read" });
		expect(pre("read", { path: "a", limit: 10 }, false)).toEqual({ kind: "pass" });
	});

	it("leaves invalid offsets and limits with the original tool", () => {
		for (const input of [
			{ path: "a", offset: 0, limit: 9999 },
			{ path: "a", offset: -1 },
			{ path: "a", limit: 0 },
			{ path: "a", limit: 1.5 },
			{ path: "a", limit: "999" },
			"not an object",
		]) {
			expect(pre("read", input)).toEqual({ kind: "pass" });
			expect(classifyDeclaredRange("read", input)).toEqual({ kind: "invalid" });
		}
	});

	it("uses the configured limits", () => {
		const custom = { ...limits, fullReadLines: 10 };
		expect(decidePreCall({ toolName: "read", input: { limit: 11 }, builtin: true, limits: custom }).kind).toBe(
			"oversized",
		);
	});
});

describe("the narrow PowerShell form", () => {
	it.each([
		["Get-Content big.log -TotalCount 400", 400],
		["gc big.log -First 351", 351],
		["Get-Content -Path 'C:\\logs\\big file.log' -TotalCount 5", 5],
		['get-content -LiteralPath "a.txt" -first 12', 12],
		["GC -TotalCount 7 a.txt", 7],
	])("recognises %j as %i lines", (command, lines) => {
		expect(parsePowerShellHeadCommand(command)?.lines).toBe(lines);
	});

	it.each([
		"Get-Content big.log -TotalCount 400 | Select-Object -First 1",
		"Get-Content big.log -TotalCount 400 > out.txt",
		"Get-Content big.log -TotalCount 400; rm x",
		"Get-Content big.log",
		"Get-Content big.log -Tail 400",
		"Get-Content big.log -Raw -TotalCount 400",
		"Get-Content *.log -TotalCount 400",
		"Get-Content $env:FILE -TotalCount 400",
		"Get-Content a.log b.log -TotalCount 400",
		"Get-Content a.log -TotalCount 4 -First 5",
		"Get-Content a.log -TotalCount -5",
		"Get-Content a.log -TotalCount 0",
		"Get-Content a.log -TotalCount 400 && echo hi",
		"Get-Content (Get-Item a) -TotalCount 400",
		"Get-Content a.log -TotalCount 400\nrm a",
		"cat a.log -TotalCount 400",
		"'Get-Content' a.log -TotalCount 400",
	])("rejects %j", (command) => {
		expect(parsePowerShellHeadCommand(command)).toBeUndefined();
	});

	it("pins the built-in powershell head form at 350 and 351 lines", () => {
		expect(pre("powershell", { command: "gc a.log -First 350" }).kind).toBe("within");
		expect(pre("powershell", { command: "gc a.log -First 351" })).toMatchObject({
			kind: "oversized",
			range: { tool: "powershell", scope: "full", lines: 351 },
		});
		expect(pre("powershell", { command: "gc a.log -First 351" }, false)).toEqual({
			kind: "uncovered",
			tool: "powershell",
		});
		expect(pre("bash", { command: "gc a.log -First 351" })).toEqual({ kind: "pass" });
	});

	it("narrows only the count", () => {
		expect(narrowPowerShellHeadCommand("Get-Content -Path a.log -TotalCount 900", 120)).toBe(
			"Get-Content -Path a.log -TotalCount 120",
		);
		expect(narrowPowerShellHeadCommand("gc a.log | x", 5)).toBeUndefined();
	});

	it("never throws on arbitrary input", () => {
		fc.assert(
			fc.property(fc.string(), (command) => {
				const parsed = parsePowerShellHeadCommand(command);
				return parsed === undefined || parsed.lines >= 1;
			}),
			{ numRuns: 500 },
		);
	});
});

describe("classifyResultEligibility", () => {
	const text = (t: string) => [{ type: "text", text: t }];
	const eligible = (
		toolName: string,
		content: unknown,
		extra: Partial<{ isError: boolean; builtin: boolean; input: unknown }> = {},
	) =>
		classifyResultEligibility({
			toolName,
			builtin: extra.builtin ?? true,
			isError: extra.isError ?? false,
			content,
			input: extra.input ?? {},
		});

	it("accepts one successful text block from the built-in read, bash, powershell and grep", () => {
		for (const tool of ["read", "bash", "powershell", "grep"]) {
			expect(eligible(tool, text("hello\nworld\n"))).toMatchObject({ eligible: true, tool, text: "hello\nworld\n" });
		}
	});

	it("uses full limits for a read without offset, targeted otherwise", () => {
		expect(eligible("read", text("x"), { input: { path: "a" } })).toMatchObject({
			scope: "full",
			declaredLines: undefined,
		});
		expect(eligible("read", text("x"), { input: { path: "a", limit: 20 } })).toMatchObject({
			scope: "full",
			declaredLines: 20,
		});
		expect(eligible("read", text("x"), { input: { path: "a", offset: 3 } })).toMatchObject({ scope: "targeted" });
		expect(eligible("bash", text("x"), { input: { command: "ls" } })).toMatchObject({ scope: "targeted" });
		expect(eligible("powershell", text("x"), { input: { command: "gc a -First 9" } })).toMatchObject({
			scope: "full",
			declaredLines: 9,
		});
	});

	it("leaves errors, JSON of every root type, NUL, images, multi-block and others intact", () => {
		expect(eligible("bash", text("boom"), { isError: true })).toEqual({ eligible: false, reason: "error" });
		for (const json of ['{"a":1}', "[1,2]", '"s"', "42", "true", "null", ' \n {"a": [1]} \n']) {
			expect(eligible("bash", text(json))).toEqual({ eligible: false, reason: "json" });
		}
		expect(eligible("bash", text("a\u0000b"))).toEqual({ eligible: false, reason: "binary" });
		expect(
			eligible("read", [
				{ type: "text", text: "img" },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
			]),
		).toEqual({
			eligible: false,
			reason: "not-single-text",
		});
		expect(eligible("bash", [...text("a"), ...text("b")])).toEqual({ eligible: false, reason: "not-single-text" });
		expect(eligible("bash", [])).toEqual({ eligible: false, reason: "not-single-text" });
		expect(eligible("bash", "raw string")).toEqual({ eligible: false, reason: "not-single-text" });
		expect(eligible("find", text("x"))).toEqual({ eligible: false, reason: "not-covered-tool" });
		expect(eligible("ls", text("x"))).toEqual({ eligible: false, reason: "not-covered-tool" });
		expect(eligible("bash", text("x"), { builtin: false })).toEqual({ eligible: false, reason: "not-builtin" });
		expect(eligible("read", text("x"), { input: { path: "a", offset: 0 } })).toEqual({
			eligible: false,
			reason: "invalid-range",
		});
	});

	it("treats truncated JSON (with a notice) as text", () => {
		expect(isJsonText('{"a": 1,\n\n[Showing lines 1-2 of 9]')).toBe(false);
		expect(isJsonText("")).toBe(false);
	});

	it("decides exactly as parsing the trimmed text would, with or without its first-character test", () => {
		const parses = (text: string) => {
			const trimmed = text.trim();
			if (trimmed.length === 0) return false;
			try {
				JSON.parse(trimmed);
				return true;
			} catch {
				return false;
			}
		};
		const whitespace = fc.constantFrom("", " ", "\n\t", "\u00a0", "\ufeff ", "\r\n");
		const texts = fc.oneof(
			fc.string(),
			fc.json(),
			fc.tuple(whitespace, fc.json(), whitespace).map(([a, json, b]) => a + json + b),
			fc.tuple(whitespace, fc.string()).map(([a, text]) => a + text),
		);
		fc.assert(
			fc.property(texts, (text) => {
				expect(isJsonText(text)).toBe(parses(text));
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("canonicalToolCall", () => {
	it("ignores key order and distinguishes any change", () => {
		expect(canonicalToolCall("read", { path: "a", limit: 5 })).toBe(canonicalToolCall("read", { limit: 5, path: "a" }));
		expect(canonicalToolCall("read", { path: "a", limit: 5 })).not.toBe(
			canonicalToolCall("read", { path: "a", limit: 6 }),
		);
		expect(canonicalToolCall("read", { path: "a" })).not.toBe(canonicalToolCall("bash", { path: "a" }));
	});
});
