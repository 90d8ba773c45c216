import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { unknownDemoArgument } from "../src/main.ts";
import { renderTurnTable } from "../src/report.ts";
import { runScenario } from "../src/run.ts";
import { withSandboxEnv } from "../src/sandbox.ts";
import { loadScenarios, stockBaseline } from "../src/scenarios.ts";

describe("pnpm demo", () => {
	it("every `pnpm demo …` the docs and READMEs show takes known flags and names a real scenario or extension", async () => {
		const root = resolve(import.meta.dirname, "..", "..", "..");
		const files = [
			"README.md",
			...readdirSync(resolve(root, "docs"))
				.filter((name) => name.endsWith(".md"))
				.map((name) => `docs/${name}`),
			...readdirSync(resolve(root, "packages")).map((name) => `packages/${name}/README.md`),
		];
		const ids = new Set((await loadScenarios()).map((s) => s.id));
		const shown = files.flatMap((file) =>
			[...readFileSync(resolve(root, file), "utf8").matchAll(/`pnpm demo([^`]*)`/g)].map((m) => (m[1] ?? "").trim()),
		);
		expect(shown.length).toBeGreaterThan(2);
		for (const command of shown) {
			const argv = command === "" ? [] : command.split(/\s+/);
			expect(unknownDemoArgument(argv), command).toBeUndefined();
			const scenario = argv[argv.indexOf("--scenario") + 1];
			if (argv.includes("--scenario") && scenario !== "<id>") expect(ids.has(scenario ?? ""), command).toBe(true);
		}
		// The flag two docs once named, which the demo ignored: now refused with exit code 2.
		expect(unknownDemoArgument(["--only", "context-shunt"])).toBe("--only");
		// A value flag with nothing after it no longer runs the whole suite.
		expect(unknownDemoArgument(["--with"])).toBe("--with");
		expect(unknownDemoArgument(["--with", "--list"])).toBe("--with");
		expect(unknownDemoArgument(["--with", "context-shunt"])).toBeUndefined();
		const run = spawnSync(process.execPath, ["--import", "tsx", "tooling/demo/src/main.ts", "--only", "x"], {
			cwd: root,
			encoding: "utf8",
		});
		expect(run.status).toBe(2);
		expect(run.stderr).toContain('Unknown argument "--only"');
	});

	it("runs the stock baseline in a real session and shows the big read reaching the model", async () => {
		const { rows } = await runScenario(stockBaseline);
		expect(rows.length).toBe(stockBaseline.steps().length);
		const readRow = rows.find((row) => row.arrived.some((label) => label.startsWith("read result")));
		expect(readRow?.newBytes).toBeGreaterThan(40_000);
		expect(rows.every((row) => row.arrived.every((label) => !label.includes("error")))).toBe(true);
		const table = renderTurnTable(rows);
		for (const line of table.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
	});

	it("discovers every scenario file, stock first, with unique ids", async () => {
		const scenarios = await loadScenarios();
		expect(scenarios[0]?.id).toBe("stock");
		const ids = scenarios.map((s) => s.id);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it("--list builds nothing: the demo runs from sources, the kernel resolved by tooling/tsconfig.sources.json", () => {
		const root = resolve(import.meta.dirname, "..", "..", "..");
		const rootScripts = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")).scripts;
		const demoScripts = JSON.parse(readFileSync(resolve(root, "tooling/demo/package.json"), "utf8")).scripts;
		expect(rootScripts.demo).not.toMatch(/build/);
		expect(demoScripts.demo).toContain("--tsconfig ../tsconfig.sources.json");
		const tsx = resolve(root, "node_modules/tsx/dist/cli.mjs");
		const list = spawnSync(
			process.execPath,
			[tsx, "--tsconfig", "tooling/tsconfig.sources.json", "tooling/demo/src/main.ts", "--list"],
			{ cwd: root, encoding: "utf8", timeout: 60_000 },
		);
		expect(list.status).toBe(0);
		expect(list.stdout).toContain("extensions (pnpm demo --with <name>):");
		expect(list.stdout).toContain("guardian-review");
		expect(list.stdout + list.stderr).not.toMatch(/build|tsup/i);
	});
});

describe("the demo sandbox", () => {
	it("removes its throwaway HOME after a session, also one that throws", async () => {
		let home = "";
		const answer = await withSandboxEnv(async (env) => {
			home = env.HOME ?? "";
			expect(existsSync(join(home, ".demo-bin", "curl"))).toBe(true);
			return 7;
		});
		expect({ answer, left: existsSync(home) }).toEqual({ answer: 7, left: false });
		await expect(
			withSandboxEnv(async (env) => {
				home = env.HOME ?? "";
				throw new Error("session failed");
			}),
		).rejects.toThrow("session failed");
		expect(existsSync(home)).toBe(false);
	});
});
