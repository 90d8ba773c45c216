// `pnpm try <extension>` as a user meets it: the real pi TUI in a terminal (tmux), the prepared prompt sent with
// Enter, the screen read back, and Ctrl+C twice to leave.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guideLines } from "../src/main.ts";
import { TRY_EXTENSIONS, TRY_SCENARIOS, type TryExtension } from "../src/scenarios.ts";

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");
const sockets: string[] = [];

function tmux(socket: string, ...args: string[]): string {
	return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

/** The whole pane, history included, with lines joined and whitespace collapsed (so wrapping does not matter). */
function screen(socket: string): string {
	return tmux(socket, "capture-pane", "-p", "-J", "-S", "-2000", "-t", "try").replace(/\s+/g, " ");
}

async function waitFor(socket: string, texts: string[], timeoutMs: number): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	let last = "";
	while (Date.now() < deadline) {
		last = screen(socket);
		if (texts.every((text) => last.includes(text))) return last;
		await new Promise((done) => setTimeout(done, 500));
	}
	throw new Error(`screen never showed ${JSON.stringify(texts.filter((t) => !last.includes(t)))}:\n${last}`);
}

afterEach(() => {
	for (const socket of sockets.splice(0)) spawnSync("tmux", ["-L", socket, "kill-server"]);
});

async function tryInTmux(extension: TryExtension): Promise<void> {
	const scenario = TRY_SCENARIOS[extension];
	const socket = `pi-policy-try-${process.pid}-${extension}`;
	sockets.push(socket);
	tmux(
		socket,
		"new-session",
		"-d",
		"-s",
		"try",
		"-x",
		"120",
		"-y",
		"50",
		"-c",
		repoRoot,
		`pnpm try ${extension}; echo "TRY-EXIT=$?"; sleep 120`,
	);
	// Pi is up: the guide is above the editor and the prompt is prepared in it.
	const guide = guideLines(scenario).map((line) => line.replace(/\s+/g, " "));
	const started = await waitFor(socket, [...guide, "v1.6.0", scenario.prompt], 150_000);
	expect(started).toContain("Enter sends the prepared prompt");
	expect(started).toContain("Ctrl+C twice");
	tmux(socket, "send-keys", "-t", "try", "Enter");
	const shown = await waitFor(socket, scenario.screen, 90_000);
	for (const text of scenario.screen) expect(shown).toContain(text);
	// The demo project's temp folder, as the footer shows it.
	const project = /(\/\S*pi-policy-try-[\w-]+\/retry-demo)/.exec(shown)?.[1];
	expect(project && existsSync(project)).toBe(true);
	tmux(socket, "send-keys", "-t", "try", "C-c", "C-c");
	const ended = await waitFor(socket, ["TRY-EXIT=0"], 30_000);
	expect(ended).toMatch(
		new RegExp(`pnpm try ${extension}: pi exited \\(0\\); the loopback model answered \\d+ requests`),
	);
	expect(existsSync(project ?? "")).toBe(false);
}

describe("pnpm try", () => {
	it("has a scenario, with what to look for on screen, for every extension", () => {
		expect(Object.keys(TRY_SCENARIOS).sort()).toEqual([...TRY_EXTENSIONS].sort());
		for (const name of TRY_EXTENSIONS) {
			expect(existsSync(resolve(repoRoot, "packages", name, "src", "index.ts"))).toBe(true);
			expect(TRY_SCENARIOS[name].screen.length).toBeGreaterThan(0);
		}
	});

	it("guardian-review: the floor denies rm -rf ~ and the reviewer model denies an installer, on screen", async () => {
		await tryInTmux("guardian-review");
	}, 300_000);

	it("exploration-guard: a nudge, then a paused broad search and a delegated survey, on screen", async () => {
		await tryInTmux("exploration-guard");
	}, 300_000);

	it("context-shunt: a receipt in place of a 4,001-line log, and a recovered range, on screen", async () => {
		await tryInTmux("context-shunt");
	}, 300_000);

	it("an unknown extension gets the list and exit code 2", () => {
		const run = spawnSync(process.execPath, ["--import", "tsx", "tooling/try/src/main.ts", "no-such-ext"], {
			cwd: repoRoot,
			encoding: "utf8",
		});
		expect(run.status).toBe(2);
		expect(run.stderr).toContain('Unknown extension "no-such-ext"');
		for (const name of TRY_EXTENSIONS) expect(run.stderr).toContain(name);
	});
});
