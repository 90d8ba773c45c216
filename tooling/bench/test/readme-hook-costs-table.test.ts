// `readme-hook-costs` rewrites the hook-time cell of each row of the top README's cost table from one results file,
// and stops with the extension's name when a row's cell is missing (in a copy of the READMEs, never the real ones).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOOK_COST_PACKAGES, writeReadmeHookCosts } from "../src/readme-hook-costs.ts";

const root = resolve(import.meta.dirname, "..", "..", "..");

const figures = [
	["tool calls per session", 500],
	["rounds (order rotated)", 7],
	["session time, none (median of both empty sides, ms)", 9000],
	["noise floor: none again / none (median)", 1.02],
	...HOOK_COST_PACKAGES.map((name) => [`session time ratio, ${name} alone / none (median)`, 1.01]),
	["session time ratio, all five / none (median)", 1.015],
	["hot-path handler time, all five, µs per tool call", 450],
	["profile: guardian-review tool_call, µs per call (500 calls)", 300],
	["profile: context-shunt tool_result, µs per call (500 calls)", 60],
	["profile: context-shunt context, µs per call (501 calls)", 7],
].map(([name, value]) => ({ name: name as string, value: value as number, unit: "count" as const }));
const results = { date: "2026-12-04T20:56:13.946Z", results: [{ id: "hook-overhead", figures }] };

let copy: string;

beforeEach(() => {
	copy = mkdtempSync(join(tmpdir(), "readme-hook-costs-"));
	cpSync(join(root, "README.md"), join(copy, "README.md"));
	for (const name of HOOK_COST_PACKAGES) {
		mkdirSync(join(copy, "packages", name), { recursive: true });
		cpSync(join(root, "packages", name, "README.md"), join(copy, "packages", name, "README.md"));
	}
});

afterEach(() => {
	rmSync(copy, { recursive: true, force: true });
});

describe("readme-hook-costs and the top README's cost table", () => {
	it("rewrites each row's hook-time cell from the results", () => {
		expect(writeReadmeHookCosts(copy, results)).toContain("README.md");
		const top = readFileSync(join(copy, "README.md"), "utf8");
		expect(top).toMatch(/^\| context-shunt \|.*\| 1\.010× alone, 67 µs per call \|$/m);
		expect(top).toMatch(/^\| guardian-review \|.*\| 1\.010× alone, 300 µs per call \|$/m);
	});

	it("stops with the extension's name when a row has no hook-time cell", () => {
		const path = join(copy, "README.md");
		writeFileSync(
			path,
			readFileSync(path, "utf8").replace(/^(\| guardian-review \|.*\| )[\d.]+× alone.*$/m, "$1n/a |"),
		);
		expect(() => writeReadmeHookCosts(copy, results)).toThrow(
			"README.md: the cost table has no hook-time cell for guardian-review",
		);
	});
});
