// The test preflight: session tests run Pi's grep and find tools, which need ripgrep (`rg`) and fd (`fd`, or
// Debian's `fdfind`) on PATH. Without them 41 tests would fail one by one; the preflight says so in one line.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** A tool the session tests need, and the names it may go by on PATH. */
interface RequiredTool {
	tool: string;
	names: readonly string[];
	/** Package names on Debian/Ubuntu (apt) and macOS (Homebrew). */
	apt: string;
	brew: string;
}

const REQUIRED_TOOLS: readonly RequiredTool[] = [
	{ tool: "ripgrep (rg)", names: ["rg"], apt: "ripgrep", brew: "ripgrep" },
	{ tool: "fd (fd or fdfind)", names: ["fd", "fdfind"], apt: "fd-find", brew: "fd" },
];

function missingRequiredTools(path: string | undefined): RequiredTool[] {
	const dirs = (path ?? "").split(delimiter).filter((dir) => dir !== "");
	return REQUIRED_TOOLS.filter(({ names }) => !names.some((name) => dirs.some((dir) => isExecutable(join(dir, name)))));
}

function isExecutable(file: string): boolean {
	try {
		accessSync(file, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** The required tools that no directory of `path` holds as an executable, as display names. */
export function missingTestTools(path: string | undefined): string[] {
	return missingRequiredTools(path).map(({ tool }) => tool);
}

/** The one line the preflight prints when tools are missing, or undefined when all are present. */
export function testPreflightProblem(path: string | undefined): string | undefined {
	const missing = missingRequiredTools(path);
	if (missing.length === 0) return undefined;
	const names = (key: "apt" | "brew") => missing.map((tool) => tool[key]).join(" ");
	return (
		`pnpm test needs ${missing.map(({ tool }) => tool).join(" and ")} on PATH for Pi's grep and find tools: ` +
		`install with \`apt-get install ${names("apt")}\` (Debian/Ubuntu) or \`brew install ${names("brew")}\` (macOS).`
	);
}
