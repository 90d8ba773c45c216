// Helpers for the packed-install test: the publishable packages, packing with pnpm, reading tarballs, README
// examples, and the environment under which the real `pi install` runs npm with no registry.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { cp, mkdir, rm } from "node:fs/promises";
import { builtinModules } from "node:module";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** The repository root (this file is tooling/packed-install/test/support.ts). */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** One publishable package of the workspace. */
export interface PublishablePackage {
	/** Folder under packages/, also the extension's config file name (`policy/<folder>.json`). */
	folder: string;
	/** npm name. */
	name: string;
	/** The slash command the extension registers when enabled; undefined for the kernel. */
	command?: string;
	/** Extra files the tarball must carry (beyond dist, README.md, CHANGELOG.md, schema.json, package.json). */
	extraFiles?: string[];
}

export const KERNEL: PublishablePackage = { folder: "policy-kernel", name: "@pi-policy/policy-kernel" };

export const EXTENSIONS: PublishablePackage[] = [
	{ folder: "exploration-guard", name: "@pi-policy/exploration-guard", command: "exploration-guard" },
	{ folder: "output-minimizer", name: "@pi-policy/output-minimizer", command: "output-minimizer" },
	{ folder: "context-shunt", name: "@pi-policy/context-shunt", command: "context-shunt" },
	{
		folder: "delegation-policy",
		name: "@pi-policy/delegation-policy",
		command: "delegate",
		extraFiles: ["agents/delegation-policy.advisor.md", "agents/delegation-policy.bulk-reader.md"],
	},
	{ folder: "guardian-review", name: "@pi-policy/guardian-review", command: "guardian" },
];

export const ALL_PACKAGES: PublishablePackage[] = [KERNEL, ...EXTENSIONS];

/**
 * policy-report, packed and installed on its own (its own npm root): unlike the five extensions it has runtime
 * dependencies from npm (the OpenTelemetry SDK), which the offline install takes from local tarballs instead.
 */
export const REPORT: PublishablePackage = {
	folder: "policy-report",
	name: "@pi-policy/policy-report",
	command: "policy",
};

/** Packages Pi supplies to extensions (docs/packages.md): they must be peers, never installed copies. */
export const HOST_PACKAGES = [
	"@earendil-works/pi-ai",
	"@earendil-works/pi-agent-core",
	"@earendil-works/pi-coding-agent",
	"@earendil-works/pi-tui",
	"typebox",
];

export function packageDir(pkg: PublishablePackage): string {
	return join(REPO_ROOT, "packages", pkg.folder);
}

/** Throws a clear message when a package was not built (the root `pnpm test` builds before vitest). */
export function assertBuilt(pkg: PublishablePackage): void {
	const dir = packageDir(pkg);
	const required = ["dist/index.js", "dist/index.d.ts", ...(pkg.command ? ["schema.json"] : [])];
	const missing = required.filter((file) => !existsSync(join(dir, file)));
	if (missing.length > 0) {
		throw new Error(
			`packages/${pkg.folder} is not built (missing ${missing.join(", ")}). ` +
				'Run `pnpm -r --filter "./packages/**" run build` first; the root `pnpm test` does this before vitest.',
		);
	}
}

/** The kernel's subpath entries, derived from its sources exactly as its tsup config does. */
export function kernelEntryNames(): string[] {
	const src = join(packageDir(KERNEL), "src");
	const names: string[] = [];
	for (const item of readdirSync(src, { withFileTypes: true })) {
		if (item.isFile() && item.name.endsWith(".ts") && !item.name.endsWith(".test.ts"))
			names.push(item.name.slice(0, -3));
		else if (item.isDirectory() && existsSync(join(src, item.name, "index.ts"))) names.push(item.name);
	}
	return names.sort();
}

/** A packed package: the tarball, its unpacked `package/` folder and the file list read from the tarball itself. */
export interface PackedPackage {
	pkg: PublishablePackage;
	tarball: string;
	/** `<unpacked>/package`: the tarball's contents on disk. */
	dir: string;
	/** Paths inside the tarball, without the leading `package/`, sorted. */
	files: string[];
	manifest: Record<string, unknown> & {
		name: string;
		version: string;
		dependencies?: Record<string, string>;
		peerDependencies?: Record<string, string>;
	};
}

/** `pnpm pack --json` into `destination`, then lists and unpacks the tarball with `tar`. */
export async function packPackage(pkg: PublishablePackage, destination: string): Promise<PackedPackage> {
	const { stdout } = await execFileAsync("pnpm", ["pack", "--json", "--pack-destination", destination], {
		cwd: packageDir(pkg),
		maxBuffer: 16 * 1024 * 1024,
	});
	const { filename } = JSON.parse(stdout) as { filename: string };
	const listing = await execFileAsync("tar", ["-tzf", filename], { maxBuffer: 16 * 1024 * 1024 });
	const files = listing.stdout
		.split("\n")
		.filter((line) => line.length > 0 && !line.endsWith("/"))
		.map((line) => line.replace(/^package\//, ""))
		.sort();
	const unpacked = join(destination, "unpacked", pkg.folder);
	await mkdir(unpacked, { recursive: true });
	await execFileAsync("tar", ["-xzf", filename, "-C", unpacked]);
	const dir = join(unpacked, "package");
	const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackedPackage["manifest"];
	return { pkg, tarball: filename, dir, files, manifest };
}

/**
 * The folders of a workspace package's runtime dependencies from npm (workspace packages left out), with theirs,
 * resolved through pnpm's layout: each dependency is a sibling in the `node_modules` folder that holds its
 * dependent. Non-optional peers count, as npm installs them. Sorted, each once.
 */
export function npmDependencyClosure(pkg: PublishablePackage): string[] {
	const manifestOf = (dir: string) =>
		JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
			name: string;
			dependencies?: Record<string, string>;
			peerDependencies?: Record<string, string>;
			peerDependenciesMeta?: Record<string, { optional?: boolean }>;
		};
	const runtimeNames = (manifest: ReturnType<typeof manifestOf>) => [
		...Object.keys(manifest.dependencies ?? {}),
		...Object.keys(manifest.peerDependencies ?? {}).filter(
			(name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
		),
	];
	const found = new Set<string>();
	const pending: Array<{ holder: string; name: string }> = runtimeNames(manifestOf(packageDir(pkg)))
		.filter((name) => !name.startsWith("@pi-policy/") && !HOST_PACKAGES.includes(name))
		.map((name) => ({ holder: join(packageDir(pkg), "node_modules"), name }));
	while (pending.length > 0) {
		const { holder, name } = pending.pop() as { holder: string; name: string };
		const dir = realpathSync(join(holder, name));
		if (found.has(dir)) continue;
		found.add(dir);
		// pnpm keeps a package at <store entry>/node_modules/<name>, next to its own dependencies.
		const siblings = dir.slice(0, dir.length - name.length);
		for (const dependency of runtimeNames(manifestOf(dir))) pending.push({ holder: siblings, name: dependency });
	}
	return [...found].sort();
}

/**
 * `npm pack` of an installed package folder (no lifecycle scripts, no registry) into `destination`. It packs a
 * plain copy: pnpm's store hard-links files of equal content, npm pack then writes the second one as a tar link
 * entry, and npm install drops link entries, so the installed package would miss those files.
 */
export async function packInstalledFolder(dir: string, destination: string, env: NodeJS.ProcessEnv): Promise<string> {
	const copy = join(destination, "copies", basename(dir));
	await rm(copy, { recursive: true, force: true });
	await cp(dir, copy, { recursive: true });
	const { stdout } = await execFileAsync(
		"npm",
		["pack", "--ignore-scripts", "--json", "--pack-destination", destination],
		{ cwd: copy, env, maxBuffer: 16 * 1024 * 1024 },
	);
	const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
	if (packed === undefined) throw new Error(`npm pack printed no tarball for ${dir}`);
	return join(destination, packed.filename);
}

/** Every ```json fenced block of a Markdown document, parsed. */
export function readmeJsonExamples(markdown: string): unknown[] {
	return [...markdown.matchAll(/^```json[ \t]*\r?\n([\s\S]*?)^```[ \t]*$/gm)].map((match) =>
		JSON.parse(match[1] ?? ""),
	);
}

const BUILTINS = new Set(builtinModules);

/** Bare module specifiers imported by an ES module's text (static `from`, side-effect and dynamic imports). */
export function bareImports(code: string): string[] {
	const found = new Set<string>();
	for (const match of code.matchAll(/(?:(?<![\w-])from\s*|(?<![\w-])import\s*\(?\s*)["']([^"'./\s][^"'\s]*)["']/g)) {
		const specifier = match[1] ?? "";
		if (specifier.startsWith("node:") || BUILTINS.has(specifier)) continue;
		found.add(specifier);
	}
	return [...found].sort();
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageNameOf(specifier: string): string {
	const parts = specifier.split("/");
	return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/**
 * Environment for `pi install` (applied on top of runPiCli's): npm may use only its (empty, private) cache, so any
 * attempt to reach the registry fails with ENOTCACHED instead of fetching; no update notifier, audit or fund calls.
 * Inherited `npm_config_*` variables from an enclosing pnpm are removed so they cannot steer npm.
 */
export function offlineNpmEnv(home: string, cache: string): Record<string, string | undefined> {
	const env: Record<string, string | undefined> = {};
	for (const key of Object.keys(process.env)) {
		if (/^(npm|pnpm)_config_/i.test(key)) env[key] = undefined;
	}
	return {
		...env,
		HOME: home,
		npm_config_offline: "true",
		npm_config_cache: cache,
		npm_config_update_notifier: "false",
		npm_config_audit: "false",
		npm_config_fund: "false",
	};
}

/** Every package name installed anywhere under a node_modules tree (nested node_modules included). */
export function installedPackageNames(nodeModules: string): string[] {
	const names: string[] = [];
	const visit = (dir: string) => {
		if (!existsSync(dir)) return;
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (entry.name.startsWith(".")) continue;
			if (entry.name.startsWith("@") && entry.isDirectory()) {
				for (const scoped of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
					const full = join(dir, entry.name, scoped.name);
					names.push(`${entry.name}/${scoped.name}`);
					visit(join(full, "node_modules"));
				}
				continue;
			}
			if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
			names.push(entry.name);
			visit(join(dir, entry.name, "node_modules"));
		}
	};
	visit(nodeModules);
	return names.sort();
}

/** Diagnostics Pi writes to stderr that would mean an installed package misbehaved at load time. */
export const LOAD_PROBLEM_PATTERN =
	/Failed to load extension|Extension package|Host-provided|duplicate|peerDependencies/i;
