// Builds the kernel for `pnpm try` only when its dist is missing or older than its sources. The extensions load
// from source, but their kernel imports resolve to the kernel's dist; rebuilding a fresh dist (tsup cleans it first)
// would pull it away from anything else running against it, such as the test suite.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const kernel = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "packages", "policy-kernel");

/** The newest modification time under `dir`, in milliseconds; 0 when there is nothing. */
function newestMtime(dir: string): number {
	let newest = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
	}
	return newest;
}

function builtAt(): number {
	try {
		return statSync(join(kernel, "dist", "index.js")).mtimeMs;
	} catch {
		return 0;
	}
}

if (builtAt() < newestMtime(join(kernel, "src"))) {
	const build = spawnSync("pnpm", ["--silent", "--filter", "@pi-policy/policy-kernel", "run", "build"], {
		stdio: "inherit",
	});
	if (build.status !== 0) process.exit(build.status ?? 1);
}
