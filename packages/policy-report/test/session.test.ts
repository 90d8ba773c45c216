// policy-report in a real Pi 1.6.0 AgentSession (pi-harness) with exploration-guard and context-shunt loaded from
// source: /policy at 100 and 40 columns and as plain text, the entry renderer switch, and pi-policy-report over
// the session's own file giving exactly the counts `/exploration-guard status` and `/context-shunt status` show.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { visibleWidth } from "@earendil-works/pi-tui";
import { callTool, createHarness, type Harness } from "@pi-policy/pi-harness";
import { afterAll, describe, expect, it } from "vitest";
import contextShunt from "../../context-shunt/src/index.ts";
import explorationGuard from "../../exploration-guard/src/index.ts";
import { runCli } from "../src/cli.ts";
import { type PolicyReportHandle, registerPolicyReport } from "../src/index.ts";

const SECRET_PATTERN = "needle-walrus-7731";
const SECRET_FILE = "src/secret-dir-okapi/handler.ts";
const open: Harness[] = [];
const temp: string[] = [];
const displayed: string[] = [];

afterAll(async () => {
	for (const harness of open) await harness.dispose();
	for (const dir of temp) await rm(dir, { recursive: true, force: true });
});

function files(): Record<string, string> {
	return {
		[SECRET_FILE]: `${Array.from({ length: 40 }, (_, i) => `export const v${i} = "${SECRET_PATTERN}";`).join("\n")}\n`,
		"big.log": `${Array.from({ length: 1200 }, (_, i) => `line ${i} ${SECRET_PATTERN}`).join("\n")}\n`,
		"README.md": `# Fixture\n${SECRET_PATTERN}\n`,
	};
}

const dimTheme = {
	fg: (_color: string, text: string) => `\x1b[2m${text}\x1b[22m`,
	bold: (text: string) => `\x1b[1m${text}\x1b[22m`,
};

interface Rendered {
	wide: string[];
	narrow: string[];
}

async function startSession(options: { ui: boolean; config?: Record<string, unknown> }) {
	const printed: string[] = [];
	const handles: PolicyReportHandle[] = [];
	const rendered: Rendered[] = [];
	const report = (pi: ExtensionAPI) => {
		handles.push(
			registerPolicyReport(pi, { print: (text) => printed.push(text), onDiagnostic: (m) => printed.push(m) }),
		);
	};
	const custom = (factory: unknown) => {
		const component = (
			factory as (
				tui: unknown,
				theme: unknown,
				kb: unknown,
				done: () => void,
			) => {
				render(width: number): string[];
			}
		)(undefined, dimTheme, undefined, () => {});
		rendered.push({ wide: component.render(100), narrow: component.render(40) });
		return undefined;
	};
	const harness = await createHarness({
		extensions: [explorationGuard, contextShunt, report],
		files: files(),
		config: {
			"exploration-guard": { mode: "warn" },
			"context-shunt": { mode: "enforce" },
			...(options.config ?? {}),
		},
		ui: options.ui ? { custom: [custom, custom] } : false,
		env: { PI_SUBAGENT_CHILD: undefined, PI_POLICY_ENABLE_TELEMETRY: undefined },
	});
	open.push(harness);
	return { harness, printed, handles, rendered };
}

function scriptWork(harness: Harness): void {
	harness.script(
		callTool("grep", { pattern: SECRET_PATTERN }),
		callTool("grep", { pattern: SECRET_PATTERN, path: "src" }),
		callTool("find", { pattern: "*.ts" }),
		callTool("ls", { path: "src" }),
		callTool("grep", { pattern: "export" }),
		callTool("bash", { command: "cat big.log" }),
		callTool("read", { path: "big.log", limit: 1000 }),
		"done",
	);
}

/** Writes the harness session as a Pi session file: a version-3 header and every entry. */
async function writeSessionFile(harness: Harness): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "policy-report-session-"));
	temp.push(dir);
	const manager = harness.session.sessionManager;
	const header = {
		type: "session",
		version: 3,
		id: manager.getSessionId(),
		timestamp: new Date().toISOString(),
		cwd: harness.cwd,
	};
	const path = join(dir, "session.jsonl");
	await writeFile(path, `${[header, ...manager.getEntries()].map((line) => JSON.stringify(line)).join("\n")}\n`);
	return path;
}

async function reportJson(paths: string[]) {
	let stdout = "";
	const { code } = await runCli([...paths, "--json"], {
		stdout: (t) => {
			stdout += t;
		},
		stderr: () => {},
		stderrIsTTY: false,
	});
	expect(code).toBe(0);
	return JSON.parse(stdout) as { sessions: number; extensions: Record<string, Record<string, number>> };
}

function notifications(harness: Harness): string[] {
	return (harness.ui?.notifications() ?? []).map((n) =>
		typeof n === "string" ? n : String((n as { message?: unknown }).message),
	);
}

function number(text: string, pattern: RegExp): number {
	const match = pattern.exec(text);
	if (!match) throw new Error(`no match for ${pattern}`);
	return Number(match[1]);
}

describe("policy-report in a real session with exploration-guard and context-shunt", () => {
	it("pi-policy-report over the session file gives exactly the counts the status commands show", async () => {
		const { harness, rendered } = await startSession({ ui: true });
		scriptWork(harness);
		await harness.prompt("Look around the project.");
		await harness.command("/exploration-guard status");
		await harness.command("/context-shunt status");
		await harness.command("/policy");
		const [guardStatus, shuntStatus] = notifications(harness).filter(
			(text) => text.startsWith("Exploration guard: mode") || text.startsWith("context-shunt: mode"),
		);
		expect(guardStatus).toBeDefined();
		expect(shuntStatus).toBeDefined();
		const warnings = number(guardStatus as string, /warnings (\d+)/);
		const guardBlocked = number(guardStatus as string, /blocked (\d+)/);
		const shuntBlocked = number(shuntStatus as string, /blocked (\d+) ·/);
		const bounded = number(shuntStatus as string, /bounded (\d+) ·/);
		expect(warnings).toBeGreaterThan(0);
		expect(bounded).toBeGreaterThan(0);
		expect(shuntBlocked).toBeGreaterThan(0);

		const report = await reportJson([await writeSessionFile(harness)]);
		expect(report.sessions).toBe(1);
		expect(report.extensions["exploration-guard"]?.warned ?? 0).toBe(warnings);
		expect(report.extensions["exploration-guard"]?.blocked ?? 0).toBe(guardBlocked);
		expect(report.extensions["context-shunt"]?.blocked ?? 0).toBe(shuntBlocked);
		expect(report.extensions["context-shunt"]?.bounded ?? 0).toBe(bounded);

		// /policy with a UI: a pi-tui component, every line within 100 and 40 columns, same counts.
		expect(rendered).toHaveLength(1);
		const view = rendered[0] as Rendered;
		for (const [width, lines] of [
			[100, view.wide],
			[40, view.narrow],
		] as const) {
			expect(lines.length).toBeGreaterThan(5);
			for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
		}
		const wide = view.wide.join("\n");
		expect(wide).toContain("exploration-guard");
		expect(wide).toContain(`nudges ${warnings}`);
		expect(wide).toContain(`artifacts ${bounded}`);
		expect(wide).toMatch(/output-minimizer.*not loaded/);
		expect(view.narrow.length).toBeGreaterThan(view.wide.length);
		displayed.push(...view.wide, ...view.narrow, ...notifications(harness));
	});

	it("/policy prints plain text without a UI, with the same counts", async () => {
		const { harness, printed } = await startSession({ ui: false });
		scriptWork(harness);
		await harness.prompt("Look around the project.");
		await harness.command("/policy");
		const text = printed.join("\n");
		const warned = harness
			.entries<{ ext: string; event: string }>("pi-policy.audit")
			.filter((e) => e.ext === "exploration-guard" && e.event === "warned").length;
		expect(warned).toBeGreaterThan(0);
		expect(text).toContain("exploration-guard: active (mode warn)");
		expect(text).toContain(`nudges ${warned}`);
		expect(text).toContain("context-shunt: active (mode enforce)");
		expect(text).toContain("guardian-review: not loaded");
		// Every entry also reached /policy live over pi-policy:audit (the listener starts in the factory).
		const entries = harness.entries("pi-policy.audit").length;
		expect(text).toContain(`pi-policy: ${entries} audit entries this session`);
		expect(text).toContain(`· ${entries} live events`);
		expect(text).toMatch(/kept out of context: \d+ bytes \(~\d+ tokens\)/);
		displayed.push(text);
	});

	it("the entry renderer is off by default and on through policy/policy-report.json, one dim line per entry", async () => {
		const off = await startSession({ ui: true });
		expect(off.harness.session.extensionRunner.getEntryRenderer("pi-policy.audit")).toBeUndefined();
		const on = await startSession({ ui: true, config: { "policy-report": { entryRenderer: true } } });
		const renderer = on.harness.session.extensionRunner.getEntryRenderer("pi-policy.audit");
		expect(renderer).toBeDefined();
		scriptWork(on.harness);
		await on.harness.prompt("Look around the project.");
		const entry = on.harness.session.sessionManager
			.getEntries()
			.find((e) => e.type === "custom" && e.customType === "pi-policy.audit");
		expect(entry).toBeDefined();
		const component = renderer?.(entry as never, { expanded: false } as never, dimTheme as never);
		const lines = component?.render(80) ?? [];
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain("\x1b[2m");
		expect(lines[0]).toContain("pi-policy · ");
		expect(on.handles[0]?.config()?.entryRenderer).toBe(true);
		displayed.push(...lines);
	});

	it("privacy: nothing displayed carries the paths or patterns the sessions used", () => {
		expect(displayed.length).toBeGreaterThan(10);
		const all = displayed.join("\n");
		for (const secret of [SECRET_PATTERN, "secret-dir-okapi", "big.log", "handler.ts", "cat "]) {
			expect(all).not.toContain(secret);
		}
	});
});
