// The README's copyable config examples are valid configs, and what it documents matches the code.
import { readFile } from "node:fs/promises";
import {
	createReport,
	EXPORT_INTERVAL_RANGE,
	finishReport,
	GATE_CRITERION_IDS,
	notSessionsText,
	OTLP_ATTRIBUTES,
	OTLP_METRICS,
	reportToJson,
	resolvePolicyReportConfig,
	TELEMETRY_ENABLE_ENV,
} from "@pi-policy/policy-kernel/report";
import { describe, expect, it } from "vitest";
import { USAGE } from "../src/cli.ts";
import { DEFAULT_EXPORT_TIMEOUT_MS, TELEMETRY_SHUTDOWN_TIMEOUT_MS } from "../src/telemetry.ts";

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
const guide = await readFile(new URL("../../../docs/policy-report.md", import.meta.url), "utf8");
const rootReadme = await readFile(new URL("../../../README.md", import.meta.url), "utf8");
const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as Record<string, unknown>;

function fencedBlocks(markdown: string, language: string): string[] {
	const ticks = "`".repeat(3);
	const fence = new RegExp(`${ticks}${language}\\n([\\s\\S]*?)${ticks}`, "g");
	return [...markdown.matchAll(fence)].map((match) => match[1] ?? "");
}

describe("README", () => {
	const examples = fencedBlocks(readme, "json");

	it.each(examples.map((block, i) => [i, block]))("config example %i is valid", (_i, block) => {
		const result = resolvePolicyReportConfig(JSON.parse(block as string));
		expect(result.ok, result.ok ? "" : result.error).toBe(true);
	});

	it("has the renderer example and the full example with the default interval", () => {
		expect(examples.length).toBeGreaterThanOrEqual(2);
		const full = examples.map((block) => JSON.parse(block) as { telemetry?: { exportIntervalMs?: number } });
		expect(full.some((c) => c.telemetry?.exportIntervalMs === EXPORT_INTERVAL_RANGE.default)).toBe(true);
	});

	it("documents the switch, attributes, metrics, timeouts, criteria and the CLI usage as the code has them", () => {
		expect(readme).toContain(`${TELEMETRY_ENABLE_ENV}=1`);
		for (const key of Object.values(OTLP_ATTRIBUTES)) expect(readme).toContain(key.endsWith(".") ? `${key}<key>` : key);
		for (const name of Object.values(OTLP_METRICS)) expect(readme).toContain(name);
		expect(readme).toContain(`after ${DEFAULT_EXPORT_TIMEOUT_MS / 1000} s`);
		expect(readme).toContain(`at most ${TELEMETRY_SHUTDOWN_TIMEOUT_MS / 1000} s`);
		for (const id of GATE_CRITERION_IDS) {
			expect(readme).toContain(`\`${id}\``);
			expect(guide).toContain(`\`${id}\``);
		}
		expect(USAGE.split("\n")[0]).toBe(`Usage: ${fencedBlocks(readme, "text")[0]?.trim()}`);
	});

	it("quotes the CLI's skipped counts: files that are not Pi sessions apart from malformed lines", () => {
		const state = createReport();
		state.skipped.notSessions = 3;
		const report = finishReport(state);
		expect(readme).toContain(`\`${notSessionsText(report).trim()}\``);
		const keys = Object.keys(reportToJson(report).skipped).map((key) => `"${key}"`);
		expect(readme).toContain(`"skipped": { ${keys.join(", ")} }`);
		expect(readme.replace(/\s+/g, " ")).toContain(
			"In session and OTLP files, malformed lines and unknown schema versions are counted and skipped",
		);
	});

	it("install comes first from a checkout or a tarball, npm after the first release; every section is there", () => {
		expect(readme.indexOf("pi install ./packages/policy-report")).toBeLessThan(
			readme.indexOf("pi install npm:@pi-policy/policy-report"),
		);
		expect(readme).toContain("pnpm pack");
		expect(readme).toMatch(/After the first release, from npm:\s+```sh\npi install npm:@pi-policy\/policy-report\n/);
		for (const section of [
			"## Install",
			"## What it costs per request",
			"## Configuration",
			"## Commands",
			"## Privacy",
			"## Failure behaviour",
			"## Roll back",
		]) {
			expect(readme).toContain(section);
		}
	});

	it("the package follows the suite's conventions and the root README lists it", () => {
		expect(pkg.keywords).toEqual(expect.arrayContaining(["pi-package", "pi-extension"]));
		expect(pkg.pi).toEqual({ extensions: ["./dist/index.js"] });
		expect(pkg.bin).toEqual({ "pi-policy-report": "./dist/cli.js" });
		expect((pkg.dependencies as Record<string, string>)["@pi-policy/policy-kernel"]).toBe("workspace:^");
		for (const peer of Object.values(pkg.peerDependencies as Record<string, string>)) expect(peer).toBe("*");
		expect(rootReadme).toContain("[policy-report](packages/policy-report)");
		expect(rootReadme).toContain("[policy-report](docs/policy-report.md)");
	});
});
