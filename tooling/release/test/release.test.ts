// Release dry run: `changeset version` in a scratch copy of the workspace bumps exactly the packages that
// have changesets (plus the kernel's dependents), and writes CHANGELOG headings as `## x.y.z`, the form
// Pi's update notice reads.
import { execFile } from "node:child_process";
import {
	cpSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const changesetBin = join(repoRoot, "node_modules", "@changesets", "cli", "bin.js");

interface Manifest {
	name: string;
	version: string;
	private?: boolean;
	dependencies?: Record<string, string>;
}

let scratch: string | undefined;
afterEach(() => {
	if (scratch) rmSync(scratch, { recursive: true, force: true });
	scratch = undefined;
});

/** Workspace member folders (packages/* and tooling/*) that have a package.json. */
function memberDirs(): string[] {
	return ["packages", "tooling"].flatMap((group) =>
		readdirSync(join(repoRoot, group), { withFileTypes: true })
			.filter((entry) => entry.isDirectory() && existsSync(join(repoRoot, group, entry.name, "package.json")))
			.map((entry) => `${group}/${entry.name}`),
	);
}

/** A scratch copy holding what changesets reads: manifests, changelogs, workspace file and .changeset. */
function scratchWorkspace(options: { keepChangesets: boolean }): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-policy-release-"));
	for (const file of ["package.json", "pnpm-workspace.yaml"]) cpSync(join(repoRoot, file), join(dir, file));
	cpSync(join(repoRoot, ".changeset"), join(dir, ".changeset"), {
		recursive: true,
		filter: (source) => options.keepChangesets || !source.endsWith(".md"),
	});
	for (const member of memberDirs()) {
		cpSync(join(repoRoot, member, "package.json"), join(dir, member, "package.json"), { recursive: true });
		const changelog = join(repoRoot, member, "CHANGELOG.md");
		if (existsSync(changelog)) cpSync(changelog, join(dir, member, "CHANGELOG.md"));
	}
	symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
	return dir;
}

function manifests(dir: string): Map<string, Manifest & { folder: string }> {
	const out = new Map<string, Manifest & { folder: string }>();
	for (const member of memberDirs()) {
		const manifest = JSON.parse(readFileSync(join(dir, member, "package.json"), "utf8")) as Manifest;
		out.set(manifest.name, { ...manifest, folder: member });
	}
	return out;
}

function writeChangeset(
	dir: string,
	name: string,
	bumps: Record<string, "major" | "minor" | "patch">,
	summary: string,
) {
	const front = Object.entries(bumps)
		.map(([pkg, bump]) => `"${pkg}": ${bump}`)
		.join("\n");
	writeFileSync(join(dir, ".changeset", `${name}.md`), `---\n${front}\n---\n\n${summary}\n`);
}

async function changesetVersion(dir: string): Promise<void> {
	await run(process.execPath, [changesetBin, "version"], { cwd: dir, env: { ...process.env, CI: "true" } });
}

function bumpMinor(version: string): string {
	const [major, minor] = version.split(".").map(Number);
	return `${major}.${(minor ?? 0) + 1}.0`;
}

const kernel = "@pi-policy/policy-kernel";

describe("release flow (changeset version in a scratch copy)", () => {
	it("bumps only the package that has a changeset when nothing depends on it", async () => {
		scratch = scratchWorkspace({ keepChangesets: false });
		const before = manifests(scratch);
		const extension = [...before.values()].find((m) => !m.private && m.name !== kernel);
		expect(extension, "at least one extension package").toBeDefined();
		writeChangeset(scratch, "one-extension", { [extension!.name]: "minor" }, "A new option.");
		await changesetVersion(scratch);

		const after = manifests(scratch);
		for (const [name, manifest] of after) {
			const expected = name === extension!.name ? bumpMinor(before.get(name)!.version) : before.get(name)!.version;
			expect(`${name}@${manifest.version}`).toBe(`${name}@${expected}`);
		}
		const changelog = readFileSync(join(scratch, extension!.folder, "CHANGELOG.md"), "utf8");
		expect(changelog).toMatch(new RegExp(`^## ${bumpMinor(extension!.version).replaceAll(".", "\\.")}$`, "m"));
		expect(changelog).toContain("A new option.");
	});

	it("bumps the kernel and every package that depends on it, and leaves private tooling alone", async () => {
		scratch = scratchWorkspace({ keepChangesets: false });
		const before = manifests(scratch);
		writeChangeset(scratch, "kernel-change", { [kernel]: "minor" }, "A new kernel function.");
		await changesetVersion(scratch);

		const after = manifests(scratch);
		const newKernel = after.get(kernel)!.version;
		expect(newKernel).toBe(bumpMinor(before.get(kernel)!.version));
		const dependents = [...before.values()].filter((m) => m.dependencies?.[kernel] !== undefined);
		expect(dependents.length).toBeGreaterThan(0);
		for (const dependent of dependents) {
			const bumped = after.get(dependent.name)!;
			expect(bumped.version, dependent.name).not.toBe(dependent.version);
			expect(bumped.dependencies?.[kernel]).toBe("workspace:^");
			const changelog = readFileSync(join(scratch, dependent.folder, "CHANGELOG.md"), "utf8");
			expect(changelog).toMatch(new RegExp(`^## ${bumped.version.replaceAll(".", "\\.")}$`, "m"));
			expect(changelog).toContain(`${kernel}@${newKernel}`);
		}
		for (const manifest of before.values()) {
			if (manifest.private) expect(after.get(manifest.name)!.version).toBe(manifest.version);
		}
	});

	it("the repository's pending changesets are valid and release every package they name", async () => {
		scratch = scratchWorkspace({ keepChangesets: true });
		const pending = readdirSync(join(scratch, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md");
		const named = new Set<string>();
		for (const file of pending) {
			const text = readFileSync(join(scratch, ".changeset", file), "utf8");
			const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? "";
			for (const line of front.split("\n")) {
				const match = /^"([^"]+)":\s*(major|minor|patch)$/.exec(line.trim());
				expect(match, `${file}: ${line}`).not.toBeNull();
				named.add(match![1]!);
			}
		}
		expect(named.size).toBeGreaterThan(0);
		const before = manifests(scratch);
		for (const name of named) expect(before.has(name), `${name} is a workspace package`).toBe(true);
		await changesetVersion(scratch);
		const after = manifests(scratch);
		for (const name of named) {
			const manifest = after.get(name)!;
			expect(manifest.version, name).not.toBe(before.get(name)!.version);
			const changelog = readFileSync(join(scratch, manifest.folder, "CHANGELOG.md"), "utf8");
			expect(changelog).toMatch(new RegExp(`^## ${manifest.version.replaceAll(".", "\\.")}$`, "m"));
		}
		expect(readdirSync(join(scratch, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md")).toEqual([]);
	});
});
