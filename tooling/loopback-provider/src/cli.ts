// The loopback provider as a command: serve a scripted model on 127.0.0.1 and point an agent folder at it, so the
// real `pi` TUI or CLI can be run by hand against it. Stops on Ctrl+C (SIGINT) or SIGTERM.
//   pnpm --filter @pi-policy/loopback-provider run serve --script <file.json> --agent-dir <dir>
// Relative paths are read from where pnpm was run (INIT_CWD), not the package folder pnpm runs the script in.
// The script is JSON: a list of replies (see README), or { "steps": [...], "byModel": { "<model id>": [...] },
// "defaultText": "..." }, where byModel answers requests addressed to that model (a reviewer, a child) first.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_MODEL_ID, DEFAULT_PROVIDER_ID } from "./models-json.ts";
import { startLoopbackProvider } from "./server.ts";
import type { LoopbackReply } from "./types.ts";

/** A script file's content, once validated. */
export interface LoopbackScriptFile {
	steps: LoopbackReply[];
	byModel: Record<string, LoopbackReply[]>;
	defaultText?: string;
}

function isReplyList(value: unknown): value is LoopbackReply[] {
	return (
		Array.isArray(value) && value.every((item) => item !== null && typeof item === "object" && !Array.isArray(item))
	);
}

/** Parses a script file; throws a short error naming what is wrong. */
export function parseLoopbackScript(text: string): LoopbackScriptFile {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(`script is not JSON: ${(error as Error).message}`);
	}
	if (isReplyList(value)) return { steps: value, byModel: {} };
	if (value === null || typeof value !== "object" || Array.isArray(value)) {
		throw new Error("script must be a list of replies or an object with steps");
	}
	const { steps = [], byModel = {}, defaultText } = value as Record<string, unknown>;
	if (!isReplyList(steps)) throw new Error("script.steps must be a list of reply objects");
	if (byModel === null || typeof byModel !== "object" || Array.isArray(byModel)) {
		throw new Error("script.byModel must map model ids to lists of replies");
	}
	for (const [model, replies] of Object.entries(byModel)) {
		if (!isReplyList(replies)) throw new Error(`script.byModel.${model} must be a list of reply objects`);
	}
	if (defaultText !== undefined && typeof defaultText !== "string")
		throw new Error("script.defaultText must be a string");
	return {
		steps,
		byModel: byModel as Record<string, LoopbackReply[]>,
		...(defaultText !== undefined ? { defaultText } : {}),
	};
}

/**
 * A path the user typed, made absolute against the folder they ran the command in. `pnpm --filter … run serve` runs
 * the script in the package folder, and sets `INIT_CWD` to where pnpm was started; without it, the process's own cwd.
 */
export function resolveUserPath(
	path: string,
	env: Readonly<Record<string, string | undefined>> = process.env,
	cwd: string = process.cwd(),
): string {
	return resolve(env.INIT_CWD || cwd, path);
}

function flag(argv: string[], name: string): string | undefined {
	const at = argv.indexOf(name);
	return at >= 0 ? argv[at + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
	const scriptArg = flag(argv, "--script");
	const agentDirArg = flag(argv, "--agent-dir");
	if (!scriptArg || !agentDirArg) {
		console.error("usage: serve --script <file.json> --agent-dir <dir>");
		return 2;
	}
	const scriptPath = resolveUserPath(scriptArg);
	const agentDir = resolveUserPath(agentDirArg);
	let script: LoopbackScriptFile;
	try {
		script = parseLoopbackScript(await readFile(scriptPath, "utf8"));
	} catch (error) {
		console.error(`loopback-provider: ${scriptArg}: ${(error as Error).message}`);
		return 2;
	}
	const queues = new Map(Object.entries(script.byModel).map(([model, replies]) => [model, [...replies]]));
	const server = await startLoopbackProvider({
		steps: script.steps,
		...(script.defaultText !== undefined ? { defaultText: script.defaultText } : {}),
		router: (request) => queues.get(String(request.body?.model))?.shift(),
	});
	const models = [DEFAULT_MODEL_ID, ...queues.keys()].filter((id, i, all) => all.indexOf(id) === i);
	const written = await server.writeModelsJson(agentDir, { models: models.map((id) => ({ id })) });
	console.log(`loopback provider on ${server.baseUrl} (models: ${written.modelRefs.join(", ")})`);
	console.log(`wrote ${written.path}`);
	console.log(
		`in another terminal: PI_CODING_AGENT_DIR=${agentDir} pnpm exec pi --model ${DEFAULT_PROVIDER_ID}/${DEFAULT_MODEL_ID}`,
	);
	console.log("Ctrl+C stops the server.");
	await new Promise<void>((done) => {
		process.once("SIGINT", done);
		process.once("SIGTERM", done);
	});
	const answered = server.chatRequests.length;
	await server.close();
	console.log(`loopback provider stopped after ${answered} chat requests`);
	return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
