// The pure kernel (everything in src/ outside src/host/) must not import node: modules, Node built-ins, the
// Pi runtime, or any runtime package besides typebox. New domain folders are picked up automatically.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findBoundaryViolations, findImports, isNodeBuiltin } from "./import-scanner.js";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
const HOST = join(SRC, "host");
const SOURCE_FILE = /\.(?:[cm]?ts|[cm]?js|tsx|jsx)$/;

function listSourceFiles(dir: string): string[] {
	const files: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) files.push(...listSourceFiles(path));
		else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(path);
	}
	return files;
}

const allFiles = listSourceFiles(SRC);
const pureFiles = allFiles.filter((file) => file !== HOST && !file.startsWith(HOST + sep));
const hostFiles = allFiles.filter((file) => file.startsWith(HOST + sep));

describe("import boundary", () => {
	it("scans every pure module, in any subfolder", () => {
		const names = pureFiles.map((file) => relative(SRC, file).split(sep).join("/"));
		expect(names).toEqual(
			expect.arrayContaining(["index.ts", "decision.ts", "config.ts", "audit.ts", "events.ts", "text.ts"]),
		);
		expect(names.some((name) => name.startsWith("host/"))).toBe(false);
	});

	it.each(pureFiles.map((file) => [relative(SRC, file), file]))(
		"%s imports no node:, Pi runtime or other runtime package",
		(_name, file) => {
			expect(findBoundaryViolations(readFileSync(file, "utf8"))).toEqual([]);
		},
	);

	it("sees the host's real node: and Pi imports (the scanner works on real files)", () => {
		const hostSource = hostFiles.map((file) => readFileSync(file, "utf8")).join("\n");
		const violations = findBoundaryViolations(hostSource);
		expect(violations.some((violation) => violation.includes('"node:fs/promises"'))).toBe(true);
		expect(
			violations.some((violation) => violation.includes('runtime import of "@earendil-works/pi-coding-agent"')),
		).toBe(true);
	});
});

describe("findBoundaryViolations", () => {
	it.each([
		['import { readFile } from "node:fs/promises";', 'node built-in "node:fs/promises"'],
		["import * as path from 'path';", 'node built-in "path"'],
		['import fs from "fs";', 'node built-in "fs"'],
		['import { join } from "node:path"', 'node built-in "node:path"'],
		['export { readFileSync } from "fs";', 'node built-in "fs"'],
		['import "node:process";', 'node built-in "node:process"'],
		['const fs = require("node:fs");', 'node built-in "node:fs"'],
		["const os = require('os');", 'node built-in "os"'],
		['const m = await import("node:crypto");', 'node built-in "node:crypto"'],
		['import type { Stats } from "node:fs";', 'node built-in "node:fs"'],
		[
			'import { CONFIG_DIR_NAME } from "@earendil-works/pi-coding-agent";',
			'runtime import of "@earendil-works/pi-coding-agent"',
		],
		[
			'import { type ExtensionAPI } from "@earendil-works/pi-coding-agent";',
			'runtime import of "@earendil-works/pi-coding-agent"',
		],
		['export * from "@earendil-works/pi-ai";', 'runtime import of "@earendil-works/pi-ai"'],
		[
			'const pi = await import("@earendil-works/pi-coding-agent");',
			'runtime import of "@earendil-works/pi-coding-agent"',
		],
		[
			'import {\n\tgetAgentDir,\n\tCONFIG_DIR_NAME,\n} from "@earendil-works/pi-coding-agent";',
			"line 1: runtime import",
		],
		['import chalk from "chalk";', 'runtime dependency "chalk"'],
	])("flags %j", (source, expected) => {
		const violations = findBoundaryViolations(source);
		expect(violations.length).toBeGreaterThan(0);
		expect(violations.join("\n")).toContain(expected);
	});

	it.each([
		'import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";',
		'export type { ExtensionContext } from "@earendil-works/pi-coding-agent";',
		'import { Type } from "typebox";',
		'import { Value } from "typebox/value";',
		'import { ok } from "./decision.js";',
		'export * from "../text.js";',
		"const typebox = 1; export const fromPath = 'node:fs';",
		"export const importer = (x: string) => x;",
	])("allows %j", (source) => {
		expect(findBoundaryViolations(source)).toEqual([]);
	});

	it("reports the line of each import", () => {
		expect(findImports('import { a } from "./a.js";\n\nimport fs from "fs";')).toEqual([
			{ specifier: "./a.js", typeOnly: false, line: 1 },
			{ specifier: "fs", typeOnly: false, line: 3 },
		]);
	});

	it("knows the node built-ins", () => {
		for (const name of ["fs", "fs/promises", "path", "os", "child_process", "crypto", "node:test", "worker_threads"]) {
			expect(isNodeBuiltin(name)).toBe(true);
		}
		for (const name of ["typebox", "@earendil-works/pi-ai", "./fs.js", "pathe"])
			expect(isNodeBuiltin(name)).toBe(false);
	});
});
