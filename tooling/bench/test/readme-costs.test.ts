// Every package README leads its Install with what works today (the checkout, then packed tarballs), marks the npm
// command "after the first release", and states what the extension costs per request with the figures
// `pnpm bench` (workload request-cost) measures. The figures are re-measured here and must match within 10% (64 B
// for the small ones, which vary by a few dozen bytes between runs).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runSuiteSession, SUITE_EXTENSIONS, type SuiteExtension, type SuiteRun } from "../../demo/src/suite.ts";
import {
	HOOK_COST_PACKAGES,
	hookCostRun,
	hookTimeLine,
	topReadmeHookCell,
	topReadmeHookSummary,
} from "../src/readme-hook-costs.ts";
import { requestCostFigures } from "../src/workloads/request-cost.ts";

const root = resolve(import.meta.dirname, "..", "..", "..");
const readme = (folder: string) => readFileSync(join(root, "packages", folder, "README.md"), "utf8");

function section(text: string, heading: string): string {
	const start = text.indexOf(`## ${heading}\n`);
	if (start < 0) return "";
	const next = text.indexOf("\n## ", start + 3);
	return text.slice(start, next < 0 ? undefined : next);
}

/** A README size like "+416 B", "+1.0 KiB" or "-33.6 KiB", in bytes. */
function bytesOf(text: string): number {
	const match = /^([+-]?[\d.,]+) (B|KiB)$/.exec(text.trim());
	if (!match) throw new Error(`not a size: ${text}`);
	const value = Number((match[1] ?? "").replace(/,/g, ""));
	return match[2] === "KiB" ? value * 1024 : value;
}

/** Where each README quotes its per-request change (first capture: the size). */
const QUOTED: Record<SuiteExtension, RegExp> = {
	"delegation-policy": /\*\*(\+[\d.]+ (?:B|KiB)) \(~\d+ tokens\) per\s+request\*\*/,
	"exploration-guard": /\*\*(\+[\d.]+ (?:B|KiB)) \(~\d+ tokens\) per request\*\*/,
	"output-minimizer": /\*\*(-[\d.]+ (?:B|KiB)) \(~-[\d,]+ tokens\) each\*\*/,
	"context-shunt": /\*\*(-[\d.]+ (?:B|KiB)) \(~-[\d,]+ tokens\) each\*\*/,
	"guardian-review": /grew by (\d+ B) on average/,
};

describe("package READMEs: install and cost", () => {
	it.each([...SUITE_EXTENSIONS])(
		"%s: Install leads with the checkout, then tarballs, npm after the first release",
		(name) => {
			const install = section(readme(name), "Install");
			const checkout = install.indexOf(`pnpm exec pi install ./packages/${name}`);
			const tarball = install.indexOf(`pnpm exec pi install npm:@pi-policy/${name}@file:`);
			const release = install.indexOf("After the first release");
			const npm = install.indexOf(`pi install npm:@pi-policy/${name}\n`);
			expect(checkout).toBeGreaterThan(0);
			expect(install.indexOf("pnpm install --frozen-lockfile && pnpm build")).toBeLessThan(checkout);
			expect(tarball).toBeGreaterThan(checkout);
			expect(release).toBeGreaterThan(tarball);
			expect(npm).toBeGreaterThan(release);
			expect(install).toContain(`pnpm try ${name}`);
		},
	);

	describe("What it costs, re-measured", () => {
		let stock: SuiteRun;
		const alone = new Map<SuiteExtension, SuiteRun>();
		beforeAll(async () => {
			stock = await runSuiteSession([], "stock");
			for (const name of SUITE_EXTENSIONS) alone.set(name, await runSuiteSession([name], name));
		}, 180_000);

		it.each([...SUITE_EXTENSIONS])("%s: the quoted bytes per request match the bench within 10%%", (name) => {
			const costs = section(readme(name), "What it costs");
			expect(costs).toContain("pnpm bench");
			const quoted = QUOTED[name].exec(costs.replace(/\s+/g, " "))?.[1];
			expect(quoted).toBeDefined();
			const run = alone.get(name) as SuiteRun;
			const measured = requestCostFigures(name, stock, run).find((f) =>
				f.name.endsWith("bytes per agent request, change vs stock (mean)"),
			)?.value as number;
			expect(Math.abs(bytesOf(quoted ?? "") - measured)).toBeLessThanOrEqual(Math.max(64, Math.abs(measured) * 0.1));
		});

		it("guardian-review: the quoted reviewer request size matches the bench within 10%", () => {
			const costs = section(readme("guardian-review"), "What it costs").replace(/\s+/g, " ");
			const quoted = /their two requests sent \*\*([\d.]+ (?:B|KiB))/.exec(costs)?.[1];
			const run = alone.get("guardian-review") as SuiteRun;
			// The long test loop, and the subagent delegation (a tool that is not built in and not annotated read-only).
			expect(run.reviewerCalls).toBe(2);
			expect(Math.abs(bytesOf(quoted ?? "0 B") - run.reviewerBytes)).toBeLessThanOrEqual(run.reviewerBytes * 0.1);
			expect(costs).toContain("8,000 tokens");
		});
	});
});

describe("hook time: every README quotes one run", () => {
	const top = readFileSync(join(root, "README.md"), "utf8");
	const quoted = (text: string, pattern: RegExp) => pattern.exec(text)?.[1];

	it("the five package READMEs and the top README give the same all-five ratio, noise floor and day", () => {
		const allFive = quoted(top, /all five together took ([\d.]+)× stock's session time/);
		const noise = quoted(top, /against itself, ([\d.]+)× in that run/);
		const day = quoted(top, /run of (\d+ \w+ \d{4})\)/);
		expect(allFive && noise && day).toBeTruthy();
		for (const name of HOOK_COST_PACKAGES) {
			const line = /^Hook time \(`pnpm bench`.*$/m.exec(readme(name))?.[0] ?? "";
			expect(quoted(line, /all five together ([\d.]+)×/), name).toBe(allFive);
			expect(quoted(line, /stock against itself: ([\d.]+)×/), name).toBe(noise);
			expect(quoted(line, /run of (\d+ \w+ \d{4})/), name).toBe(day);
		}
	});

	it("the top README's cost table quotes each package README's ratio alone and handler microseconds", () => {
		for (const name of HOOK_COST_PACKAGES) {
			const line = /^Hook time \(`pnpm bench`.*$/m.exec(readme(name))?.[0] ?? "";
			const alone = quoted(line, /alone, ([\d.]+)× the session time/);
			const micros = quoted(line, /handlers took (\d+) µs per tool call/);
			expect(alone && micros, name).toBeTruthy();
			const row = new RegExp(`^\\| ${name} \\|.*\\| ([\\d.]+)× alone, (\\d+) µs per call \\|$`, "m").exec(top);
			expect([row?.[1], row?.[2]], name).toEqual([alone, micros]);
		}
	});

	it("writes each line from a results file (the handlers' sum, within or beyond the noise)", () => {
		const figures = [
			["tool calls per session", 500],
			["rounds (order rotated)", 7],
			["session time, none (median of both empty sides, ms)", 9000],
			["noise floor: none again / none (median)", 1.02],
			...HOOK_COST_PACKAGES.map((name) => [
				`session time ratio, ${name} alone / none (median)`,
				name === "guardian-review" ? 1.05 : 1.01,
			]),
			["session time ratio, all five / none (median)", 1.015],
			["hot-path handler time, all five, µs per tool call", 450],
			["profile: guardian-review tool_call, µs per call (500 calls)", 300],
			["profile: context-shunt tool_result, µs per call (500 calls)", 60],
			["profile: context-shunt context, µs per call (501 calls)", 7],
		].map(([name, value]) => ({ name: name as string, value: value as number, unit: "count" as const }));
		const run = hookCostRun({ date: "2026-12-04T20:56:13.946Z", results: [{ id: "hook-overhead", figures }] });
		expect(hookTimeLine("context-shunt", run)).toContain(
			"run of 4 December 2026 on a shared 2-core VM, each timed session in a fresh process, medians of 7 rotated rounds): alone, 1.010× the session time of stock Pi over 500 tool calls, all five together 1.015×; both within that run's noise (stock against itself: 1.020×). Its hot-path handlers took 67 µs per tool call",
		);
		expect(hookTimeLine("context-shunt", run)).toContain(
			"`tool_result` 60 µs (500 calls), `context` 7 µs (501 calls).",
		);
		expect(hookTimeLine("guardian-review", run)).toContain("the first beyond that run's noise, the second within it");
		expect(topReadmeHookCell("context-shunt", run)).toBe("1.010× alone, 67 µs per call");
		expect(topReadmeHookCell("guardian-review", run)).toBe("1.050× alone, 300 µs per call");
		expect(topReadmeHookSummary(run)).toContain(
			"all five handlers together take 0.5 ms (2.5%). The bench's 1.05× check passed",
		);
	});
});
