// The README's host-boundary example type-checks under the suite's strict settings, and its subpath tables list
// every subpath the package publishes and every runtime export of `/host`.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import * as host from "../src/host/index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(packageDir, "..", "..");
const readme = readFileSync(join(packageDir, "README.md"), "utf8");

/** The subpaths the build publishes (tsup.config.ts): `src/<name>.ts` and `src/<name>/index.ts`. */
function publishedSubpaths(): string[] {
	const names: string[] = [];
	for (const item of readdirSync(join(packageDir, "src"), { withFileTypes: true })) {
		if (item.isFile() && item.name.endsWith(".ts") && !item.name.endsWith(".test.ts") && item.name !== "index.ts")
			names.push(item.name.slice(0, -3));
		else if (item.isDirectory() && existsSync(join(packageDir, "src", item.name, "index.ts"))) names.push(item.name);
	}
	return names.sort();
}

describe("README", () => {
	const scratch = mkdtempSync(join(packageDir, "test", ".readme-example-"));
	afterAll(() => rmSync(scratch, { recursive: true, force: true }));

	it("the host-boundary example type-checks (strict, as the extensions are built)", async () => {
		const section = readme.slice(readme.indexOf("## The host boundary"));
		const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
		expect(example).toContain('pi.on(\n\t\t"session_start"');
		writeFileSync(join(scratch, "host-boundary.ts"), example ?? "");
		writeFileSync(
			join(scratch, "tsconfig.json"),
			JSON.stringify({
				extends: "../../../../tooling/tsconfig.base.json",
				compilerOptions: {
					// The kernel's own sources, so the check needs no build.
					paths: { "@pi-policy/policy-kernel/*": ["../../src/*/index.ts", "../../src/*.ts"] },
				},
				include: ["host-boundary.ts"],
			}),
		);
		const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
		const result = await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", scratch]).then(
			() => "",
			(error: { stdout?: string }) => error.stdout ?? String(error),
		);
		expect(result).toBe("");
	}, 120_000);

	it("lists every published subpath in a subpath table", () => {
		const rows = [...readme.matchAll(/^\| `@pi-policy\/policy-kernel\/([a-z]+)`/gm)].map((match) => match[1]);
		expect(rows.sort()).toEqual(publishedSubpaths());
	});

	it("names every runtime export of /host", () => {
		const row = readme.split("\n").find((line) => line.startsWith("| `@pi-policy/policy-kernel/host`")) ?? "";
		for (const name of Object.keys(host)) expect(row, name).toContain(`\`${name}\``);
	});
});
