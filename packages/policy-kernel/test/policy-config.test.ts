// The host part of the config lifecycle: bounded, non-blocking file reads and createPolicyConfig's gate, session
// read, audit entry, notification and status line (with a recording stand-in for the Pi API; the real sessions
// are in each package's config-lifecycle test).
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_DIR_NAME } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { AUDIT_ENTRY_TYPE } from "../src/audit.js";
import { MAX_CONFIG_FILE_BYTES, strengthenByOrder } from "../src/config.js";
import { err, ok } from "../src/decision.js";
import { createPolicyConfig, type PolicyConfigContext, readConfigFile, readConfigFileSync } from "../src/host/index.js";
import { configDirsPerTest } from "./config-dirs.js";

let root: string;
let agentDir: string;
let cwd: string;
configDirsPerTest("policy-config-", (dirs) => {
	({ root, agentDir, cwd } = dirs);
});

const globalPath = (name = "exploration-guard") => join(agentDir, "policy", `${name}.json`);
const projectPath = (name = "exploration-guard") => join(cwd, CONFIG_DIR_NAME, "policy", `${name}.json`);

describe("readConfigFile and readConfigFileSync", () => {
	/** Runs `prepare` on a fresh path under the temp root and returns the path. */
	const at = (name: string, prepare: (path: string) => void = () => {}) => {
		return () => {
			const path = join(root, ...name.split("/"));
			prepare(path);
			return path;
		};
	};
	const cases: Array<[string, () => string, string]> = [
		["a regular file", at("a.json", (path) => writeFileSync(path, '{"a":1}')), "text"],
		["a missing file", at("none.json"), "missing"],
		["a missing folder", at("no/dir.json"), "missing"],
		[
			"a FIFO (no writer; would block a plain read forever)",
			at("fifo.json", (path) => execFileSync("mkfifo", [path])),
			"unreadable",
		],
		["a symlink to /dev/zero (endless)", at("zero.json", (path) => symlinkSync("/dev/zero", path)), "unreadable"],
		["a directory", at("dir.json", (path) => mkdirSync(path)), "unreadable"],
		[
			"a file one byte over 1 MiB",
			at("big.json", (path) => writeFileSync(path, "x".repeat(MAX_CONFIG_FILE_BYTES + 1))),
			"unreadable",
		],
		[
			"a file of exactly 1 MiB",
			at("max.json", (path) => writeFileSync(path, " ".repeat(MAX_CONFIG_FILE_BYTES))),
			"text",
		],
	];
	it.each(cases)("%s gives %s (async)", async (_name, make, kind) => {
		const read = await readConfigFile(make());
		expect(read.kind).toBe(kind);
	});
	it.each(cases)("%s gives %s (sync)", (_name, make, kind) => {
		expect(readConfigFileSync(make()).kind).toBe(kind);
	});
	it("returns the text of a regular file", async () => {
		writeFileSync(join(root, "t.json"), '{"mode":"warn"}');
		expect(await readConfigFile(join(root, "t.json"))).toEqual({ kind: "text", text: '{"mode":"warn"}' });
	});
});

const Schema = Type.Object(
	{ mode: Type.Enum(["off", "warn", "block"]), warnAfter: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })) },
	{ additionalProperties: false },
);

function fakePi() {
	const entries: Array<{ type: string; data: unknown }> = [];
	const emitted: unknown[] = [];
	return {
		entries,
		emitted,
		appendEntry: (type: string, data: unknown) => entries.push({ type, data }),
		events: { emit: (_channel: string, data: unknown) => emitted.push(data), on: () => () => {} },
	};
}

function fakeCtx(trusted = true) {
	const notes: Array<{ message: string; level: string | undefined }> = [];
	const ctx: PolicyConfigContext = {
		cwd,
		hasUI: true,
		isProjectTrusted: () => trusted,
		ui: { notify: (message: string, level?: "info" | "warning" | "error") => notes.push({ message, level }) },
	};
	return { ctx, notes };
}

function lifecycle(pi: ReturnType<typeof fakePi>, failure: "open" | "closed" = "open") {
	return createPolicyConfig(pi as never, {
		name: "exploration-guard",
		failure,
		agentDir,
		launchCwd: cwd,
		schema: Schema,
		projectLayer: { strengthen: { mode: strengthenByOrder(["off", "warn", "block"]) } },
		resolve: (merged) => {
			if (merged === undefined) return ok({ mode: "off" });
			const mode = (merged as { mode?: string }).mode;
			return typeof mode === "string" ? ok({ mode }) : err("mode: required");
		},
		enabled: (config) => config.mode !== "off",
		onDiagnostic: () => {},
	});
}

describe("createPolicyConfig", () => {
	it("with no config file: no hooks, status off (no config file), nothing written or shown", async () => {
		const pi = fakePi();
		const policy = lifecycle(pi);
		expect(policy.hooks).toBe(false);
		const { ctx, notes } = fakeCtx();
		expect((await policy.load(ctx)).state).toBe("off-no-file");
		expect(policy.statusLine()).toBe("off (no config file)");
		expect(policy.unavailable("allow")).toBe("exploration-guard allow: unavailable, off (no config file)");
		expect(notes).toEqual([]);
		expect(pi.entries).toEqual([]);
	});

	it("registers hooks when the global file turns it on, and runs with its config", async () => {
		writeFileSync(globalPath(), JSON.stringify({ $schema: "../schema.json", mode: "warn" }));
		const policy = lifecycle(fakePi());
		expect(policy.hooks).toBe(true);
		expect(policy.startup.state).toBe("active");
		const session = await policy.load(fakeCtx().ctx);
		expect(session).toMatchObject({ state: "active", config: { mode: "warn" } });
		expect(policy.statusLine()).toBeUndefined();
	});

	it("registers hooks when the launch folder has a project file, which applies only when trusted", async () => {
		writeFileSync(projectPath(), JSON.stringify({ mode: "block" }));
		const policy = lifecycle(fakePi());
		expect(policy.hooks).toBe(true);
		expect((await policy.load(fakeCtx(true).ctx)).config).toEqual({ mode: "block" });
		expect((await policy.load(fakeCtx(false).ctx)).state).toBe("off-no-file");
	});

	it("asks for /reload when a config turns it on after a startup without hooks", async () => {
		const policy = lifecycle(fakePi());
		writeFileSync(globalPath(), JSON.stringify({ mode: "warn" }));
		expect((await policy.load(fakeCtx().ctx)).state).toBe("needs-reload");
		expect(policy.statusLine()).toMatch(/run \/reload$/);
	});

	it.each([
		["invalid JSON", '{\n  "mode": "warn",\n}', "global: invalid JSON at line 3, column 1"],
		["an unknown key", JSON.stringify({ mode: "warn", foo: 1 }), 'global: unknown key "foo"'],
		[
			"a value out of range",
			JSON.stringify({ mode: "warn", warnAfter: 99 }),
			"global warnAfter: expected integer between 1 and 20",
		],
	])("fails open on %s: one audit entry, one notification, the same status", async (_name, content, problem) => {
		writeFileSync(globalPath(), content);
		const pi = fakePi();
		const policy = lifecycle(pi);
		expect(policy.hooks).toBe(false);
		const { ctx, notes } = fakeCtx();
		const session = await policy.load(ctx);
		expect(session).toMatchObject({ state: "disabled", config: undefined, problem });
		expect(notes).toEqual([{ message: `exploration-guard disabled: ${problem}`, level: "warning" }]);
		expect(policy.statusLine()).toBe(`disabled: ${problem}`);
		expect(pi.entries).toEqual([
			{ type: AUDIT_ENTRY_TYPE, data: { v: 1, ext: "exploration-guard", event: "config-invalid" } },
		]);
		expect(JSON.stringify([pi.entries, pi.emitted, notes])).not.toContain(root);
	});

	it("fails closed: hooks registered, the valid files' config kept, and the status says so", async () => {
		writeFileSync(globalPath(), JSON.stringify({ mode: "warn", foo: 1 }));
		writeFileSync(projectPath(), JSON.stringify({ mode: "block" }));
		const policy = lifecycle(fakePi(), "closed");
		expect(policy.hooks).toBe(true);
		const { ctx, notes } = fakeCtx();
		const session = await policy.load(ctx);
		expect(session).toMatchObject({ state: "failed-closed", config: { mode: "block" } });
		expect(notes).toEqual([
			{ message: 'exploration-guard: config invalid: global: unknown key "foo"; failing closed.', level: "warning" },
		]);
		expect(policy.statusLine()).toBe('failed closed: global: unknown key "foo"');
		expect(policy.unavailable("allow")).toBeUndefined();
	});

	it("gives the bounded error at once for a FIFO and for a symlink to /dev/zero, in the gate and the session", async () => {
		execFileSync("mkfifo", [globalPath()]);
		symlinkSync("/dev/zero", projectPath());
		const policy = lifecycle(fakePi());
		expect(policy.startup.problem).toBe("global: unreadable (expected a regular file of at most 1 MiB)");
		const session = await policy.load(fakeCtx().ctx);
		expect(session.problem).toBe("global: unreadable (expected a regular file of at most 1 MiB) (+1 more)");
		expect(session.resolution.status === "invalid" ? session.resolution.issues.map((i) => i.file) : []).toEqual([
			"global",
			"project",
		]);
	});
});
