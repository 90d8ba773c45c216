// Puts a special file where a policy config file is looked up, before the extension under test loads: a FIFO
// (which blocks a plain read forever) or a symlink to /dev/zero (which never ends). For the bounded-loader tests.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { CONFIG_DIR_NAME, type ExtensionAPI } from "@earendil-works/pi-coding-agent";

/** The special files {@link specialConfigFile} can create. */
export type SpecialConfigFileKind = "fifo" | "dev-zero";

/**
 * An extension factory to list before the extension under test: it replaces `policy/<name>.json` in the
 * harness's agentDir (`global`) or in its working directory (`project`) with a FIFO or a symlink to `/dev/zero`.
 * It registers nothing. Factories run in load order once the harness has set `PI_CODING_AGENT_DIR`.
 */
export function specialConfigFile(
	kind: SpecialConfigFileKind,
	name: string,
	file: "global" | "project" = "global",
): (pi: ExtensionAPI) => void {
	return () => {
		const agentDir = process.env.PI_CODING_AGENT_DIR;
		if (agentDir === undefined) throw new Error("specialConfigFile: PI_CODING_AGENT_DIR is not set");
		const folder =
			file === "global" ? join(agentDir, "policy") : join(dirname(agentDir), "work", CONFIG_DIR_NAME, "policy");
		const path = join(folder, `${name}.json`);
		mkdirSync(folder, { recursive: true });
		rmSync(path, { force: true });
		if (kind === "fifo") execFileSync("mkfifo", [path]);
		else symlinkSync("/dev/zero", path);
	};
}
