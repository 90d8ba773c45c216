// Realistic workspace content for demos, benchmarks and tests: real source and docs from the installed host.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The installed Pi package folder; its dist and docs are real text of realistic sizes. */
export function hostPackageDir(): string {
	// The package is ESM-only with no ./package.json export; find it in the node_modules chain instead.
	let dir = dirname(fileURLToPath(import.meta.url));
	for (;;) {
		const candidate = join(dir, "node_modules", "@earendil-works", "pi-coding-agent");
		if (existsSync(join(candidate, "package.json"))) return candidate;
		const parent = dirname(dir);
		if (parent === dir) throw new Error("pi-harness: cannot find the installed Pi package");
		dir = parent;
	}
}

export interface RealisticWorkspaceOptions {
	/** How many source files to copy from the host's dist/core (largest last). Default 12. */
	sourceFiles?: number;
	/** How many docs to copy from the host's docs folder. Default 4. */
	docs?: number;
}

/**
 * A file map for {@link createHarness}'s `files`: a small TypeScript-looking project whose sources and docs
 * are real text taken from the installed Pi package, so sizes and shapes look like real output.
 * Deterministic: files are picked by name order.
 */
export function realisticWorkspaceFiles(options: RealisticWorkspaceOptions = {}): Record<string, string> {
	const root = hostPackageDir();
	const files: Record<string, string> = {};
	const coreDir = join(root, "dist", "core");
	const sources = readdirSync(coreDir)
		.filter((name) => name.endsWith(".js") && statSync(join(coreDir, name)).isFile())
		.sort()
		.slice(0, options.sourceFiles ?? 12);
	for (const name of sources) {
		files[`src/core/${name.replace(/\.js$/, ".ts")}`] = readFileSync(join(coreDir, name), "utf8");
	}
	const docsDir = join(root, "docs");
	const docs = readdirSync(docsDir)
		.filter((name) => name.endsWith(".md"))
		.sort()
		.slice(0, options.docs ?? 4);
	for (const name of docs) files[`docs/${name}`] = readFileSync(join(docsDir, name), "utf8");
	files["README.md"] = readFileSync(join(root, "README.md"), "utf8");
	files["package.json"] = JSON.stringify(
		{ name: "demo-app", version: "1.0.0", type: "module", scripts: { test: "node --test" } },
		null,
		2,
	);
	return files;
}

/** A real text of at least `minBytes` bytes, built from the host's changelog (real prose and code). */
export function realText(minBytes: number, offset = 0): string {
	const changelog = readFileSync(join(hostPackageDir(), "CHANGELOG.md"), "utf8");
	let text = changelog.slice(offset % changelog.length);
	while (text.length < minBytes) text += changelog;
	// Each UTF-16 unit encodes to at least one byte, so minBytes units hold at least minBytes bytes.
	const last = text.charCodeAt(minBytes - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? minBytes + 1 : minBytes);
}
