// A throwaway config layout per test: `<root>/agent/policy` (the global files) and `<root>/project/.pi/policy`
// (the project files), created before each test and removed after it.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFIG_DIR_NAME } from "@earendil-works/pi-coding-agent";
import { afterEach, beforeEach } from "vitest";

/** The running test's directories. */
export interface ConfigDirs {
	/** The temp directory holding both. */
	root: string;
	/** The agent directory (its `policy` folder exists). */
	agentDir: string;
	/** The project directory (its `.pi/policy` folder exists). */
	cwd: string;
}

/** Registers the hooks; `use` receives each test's fresh directories before the test runs. */
export function configDirsPerTest(prefix: string, use: (dirs: ConfigDirs) => void): void {
	let root: string | undefined;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), prefix));
		const dirs = { root, agentDir: join(root, "agent"), cwd: join(root, "project") };
		mkdirSync(join(dirs.agentDir, "policy"), { recursive: true });
		mkdirSync(join(dirs.cwd, CONFIG_DIR_NAME, "policy"), { recursive: true });
		use(dirs);
	});
	afterEach(() => {
		if (root !== undefined) rmSync(root, { recursive: true, force: true });
		root = undefined;
	});
}
