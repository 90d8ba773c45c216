// pnpm try <extension>: the real `pi` TUI in this terminal, on a small demo project, with that one extension loaded
// from the checkout (its TypeScript source, with -e) and the loopback provider playing a short script that shows the
// extension at work. No API key, no network: every model request goes to 127.0.0.1.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
	type LoopbackProvider,
	piCliEnv,
	renderPiSubagentProfile,
	resolvePiCliPath,
	resolvePiSubagentsExtensionPath,
	startLoopbackProvider,
} from "@pi-policy/loopback-provider";
import { pathWithFdAdapter } from "../../pi-harness/src/fd-adapter.ts";
import { tryProjectFiles } from "./project.ts";
import {
	AGENT_MODEL,
	REVIEWER_MODEL,
	TRY_EXTENSIONS,
	TRY_SCENARIOS,
	type TryExtension,
	type TryScenario,
} from "./scenarios.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..", "..");

/** The keys to press, as the guide and the terminal print them. */
export const TRY_KEYS = {
	send: "Enter sends the prepared prompt",
	command: "for a /command, the first Enter picks it from the list, the second runs it",
	leave: "Ctrl+C twice quickly, Ctrl+D on an empty editor, or /quit",
};

/** Everything one `pnpm try` session needs: temp folders, the loopback server, and how to start Pi. */
export interface TrySession {
	root: string;
	cwd: string;
	agentDir: string;
	server: LoopbackProvider;
	args: string[];
	env: NodeJS.ProcessEnv;
	guide: string[];
	dispose(): Promise<void>;
}

function writeTree(root: string, files: Record<string, string>): void {
	for (const [relative, content] of Object.entries(files)) {
		const target = join(root, relative);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, content);
	}
}

/** curl and wget stand-ins, so no scripted command reaches the network. */
function offlineBin(root: string): string {
	const bin = join(root, "bin");
	mkdirSync(bin, { recursive: true });
	for (const tool of ["curl", "wget"]) {
		writeFileSync(
			join(bin, tool),
			`#!/bin/sh\necho "${tool}: (6) Could not resolve host (pnpm try: no network)" >&2\nexit 6\n`,
		);
		chmodSync(join(bin, tool), 0o755);
	}
	return bin;
}

/** The guide lines: shown above Pi's editor and printed before Pi starts. */
export function guideLines(scenario: TryScenario): string[] {
	return [
		`pnpm try ${scenario.extension}: ${scenario.title}`,
		...scenario.whatHappens,
		`Keys: ${TRY_KEYS.send}. Afterwards try: ${scenario.afterwards.join(", ")} (${TRY_KEYS.command}).`,
		`Leave: ${TRY_KEYS.leave}.`,
	];
}

/** Prepares the demo project, agent folder, loopback server and Pi's command line for one extension. */
export async function prepareTrySession(extension: TryExtension): Promise<TrySession> {
	const scenario = TRY_SCENARIOS[extension];
	const root = await mkdtemp(join(tmpdir(), `pi-policy-try-${extension}-`));
	const server = await startLoopbackProvider({
		steps: scenario.steps,
		...(scenario.router ? { router: scenario.router } : {}),
		defaultText: "(pnpm try: the script is over; type /quit to leave)",
	});
	try {
		const cwd = join(root, "retry-demo");
		const agentDir = join(root, "agent");
		const home = join(root, "home");
		mkdirSync(home, { recursive: true });
		writeTree(cwd, tryProjectFiles());
		// A git repository, so `git status` in a script has something to report (skipped when git is missing).
		spawnSync("git", ["init", "-q"], { cwd, stdio: "ignore" });
		writeTree(agentDir, {
			[`policy/${extension}.json`]: `${JSON.stringify(scenario.config, null, 2)}\n`,
			...Object.fromEntries(
				(scenario.subagents ?? []).map((agent) => [
					`agents/${agent.name}.md`,
					renderPiSubagentProfile({ ...agent, model: `loop/${AGENT_MODEL}` }),
				]),
			),
		});
		await server.writeModelsJson(agentDir, { models: [{ id: AGENT_MODEL }, { id: REVIEWER_MODEL }] });
		const guide = guideLines(scenario);
		const args = [
			resolvePiCliPath(),
			"--no-session",
			"--model",
			`loop/${AGENT_MODEL}`,
			"--tools",
			scenario.tools.join(","),
			...(scenario.subagents ? ["-e", resolvePiSubagentsExtensionPath()] : []),
			"-e",
			join(repoRoot, "packages", extension, "src", "index.ts"),
			"-e",
			join(here, "guide-extension.ts"),
		];
		const env = piCliEnv(agentDir, {
			HOME: home,
			PATH: pathWithFdAdapter(`${offlineBin(root)}${delimiter}${process.env.PATH ?? ""}`),
			PI_SUBAGENTS_TEMP_ROOT: join(root, "subagents-tmp"),
			PI_POLICY_TRY_GUIDE: JSON.stringify({ lines: guide, prompt: scenario.prompt }),
		});
		return {
			root,
			cwd,
			agentDir,
			server,
			args,
			env,
			guide,
			async dispose() {
				await server.close();
				await rm(root, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await server.close();
		await rm(root, { recursive: true, force: true });
		throw error;
	}
}

function usage(): string {
	return [
		"usage: pnpm try <extension>",
		"Opens the real pi TUI on a small demo project with that extension loaded from this checkout, and a scripted",
		"model (the loopback provider on 127.0.0.1; no API key, no network). Extensions:",
		...TRY_EXTENSIONS.map((name) => `  ${name.padEnd(18)} ${TRY_SCENARIOS[name].title.split(": ")[1] ?? ""}`),
	].join("\n");
}

async function main(argv: string[]): Promise<number> {
	const name = argv.find((arg) => !arg.startsWith("-"));
	if (argv.includes("--help") || argv.includes("-h") || name === undefined) {
		console.log(usage());
		return name === undefined && !argv.includes("--help") && !argv.includes("-h") ? 2 : 0;
	}
	if (!TRY_EXTENSIONS.includes(name as TryExtension)) {
		console.error(`Unknown extension "${name}".\n${usage()}`);
		return 2;
	}
	const session = await prepareTrySession(name as TryExtension);
	for (const line of session.guide) console.log(line);
	console.log(`Demo project: ${session.cwd}\nStarting pi …\n`);
	// Pi owns the terminal until it exits; Ctrl+C reaches it as a key, not as a signal to this process.
	const ignore = () => {};
	process.on("SIGINT", ignore);
	const code = await new Promise<number>((resolve) => {
		const child = spawn(process.execPath, session.args, { cwd: session.cwd, env: session.env, stdio: "inherit" });
		child.on("error", (error) => {
			console.error(`pnpm try: could not start pi: ${error.message}`);
			resolve(1);
		});
		child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
	});
	process.off("SIGINT", ignore);
	const requests = session.server.chatRequests.length;
	await session.dispose();
	console.log(
		`\npnpm try ${name}: pi exited (${code}); the loopback model answered ${requests} requests. Removed ${session.root}.`,
	);
	return code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
