// The package source never spawns processes, never makes a network request, and never changes Pi's main
// model or thinking level.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

const FORBIDDEN: ReadonlyArray<[string, RegExp]> = [
	["child_process", /child_process/],
	["process spawning", /\b(?:spawn|execFile|execSync|fork)\s*\(/],
	["fetch", /\bfetch\s*\(/],
	["http/https/net/tls/dgram/dns modules", /["'](?:node:)?(?:http|https|http2|net|tls|dgram|dns)["']/],
	["undici", /undici/],
	["XMLHttpRequest / WebSocket / EventSource", /\b(?:XMLHttpRequest|WebSocket|EventSource)\b/],
	["setModel", /\bsetModel\b/],
	["setThinkingLevel", /\bsetThinkingLevel\b/],
];

/** The forbidden constructs found in a source text. */
export function findForbidden(source: string): string[] {
	return FORBIDDEN.filter(([, pattern]) => pattern.test(source)).map(([name]) => name);
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return /\.(?:[cm]?[jt]s|tsx)$/.test(entry.name) ? [path] : [];
	});
}

describe("source scan of packages/delegation-policy/src", () => {
	const files = sourceFiles(SRC);

	it("finds the package's source files", () => {
		expect(files.map((file) => file.slice(SRC.length + 1)).sort()).toEqual(
			expect.arrayContaining(["index.ts", "controller.ts", "panel.ts", "global-config.ts", "catalogue.ts"]),
		);
	});

	it.each(files.map((file) => [file.slice(SRC.length + 1), file]))(
		"%s uses no process, network or model switching",
		(_name, file) => {
			expect(findForbidden(readFileSync(file, "utf8"))).toEqual([]);
		},
	);

	it("the scanner catches each forbidden construct", () => {
		expect(findForbidden(`import { spawn } from "node:child_process";`)).toEqual(["child_process"]);
		expect(findForbidden("spawn('ls')")).toEqual(["process spawning"]);
		expect(findForbidden("await fetch(url)")).toEqual(["fetch"]);
		expect(findForbidden('import https from "node:https";')).toEqual(["http/https/net/tls/dgram/dns modules"]);
		expect(findForbidden('import { request } from "undici";')).toEqual(["undici"]);
		expect(findForbidden("new WebSocket(u)")).toEqual(["XMLHttpRequest / WebSocket / EventSource"]);
		expect(findForbidden("pi.setModel(m)")).toEqual(["setModel"]);
		expect(findForbidden("pi.setThinkingLevel('high')")).toEqual(["setThinkingLevel"]);
	});
});
