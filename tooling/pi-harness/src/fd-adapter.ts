// Debian ships fd as `fdfind` (8.6), which lacks the `--no-require-git` flag Pi passes; bin/fd adapts it.
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding the `fd` adapter script. */
export const FD_ADAPTER_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "bin");

/** `path` with the fd adapter first, when it finds Debian's `fdfind` but no `fd`; otherwise `path` unchanged. */
export function pathWithFdAdapter(path: string): string {
	const dirs = path.split(delimiter).filter((dir) => dir !== "");
	const has = (name: string) => dirs.some((dir) => existsSync(join(dir, name)));
	if (has("fd") || !has("fdfind")) return path;
	return `${FD_ADAPTER_DIR}${delimiter}${path}`;
}
