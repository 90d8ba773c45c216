import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_DIR_NAME, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { describe, expect, it, vi } from "vitest";
import { AUDIT_CHANNEL, AUDIT_ENTRY_TYPE } from "../src/audit.js";
import {
	createAuditWriter,
	type HandlerDiagnostic,
	loadPolicyConfig,
	loadPolicyConfigSync,
	MAX_CONFIG_BYTES,
	policyConfigPaths,
	wrapHandler,
} from "../src/host/index.js";
import { configDirsPerTest } from "./config-dirs.js";

let root: string;
let agentDir: string;
let cwd: string;
configDirsPerTest("policy-kernel-host-", (dirs) => {
	({ root, agentDir, cwd } = dirs);
});

function writeGlobal(name: string, text: string): void {
	writeFileSync(join(agentDir, "policy", `${name}.json`), text);
}

function writeProject(name: string, text: string): void {
	writeFileSync(join(cwd, CONFIG_DIR_NAME, "policy", `${name}.json`), text);
}

describe.each([
	["loadPolicyConfig", loadPolicyConfig],
	["loadPolicyConfigSync", loadPolicyConfigSync],
] as const)("%s", (_name, load) => {
	it("returns no layers and no errors when both files are missing", async () => {
		expect(await load({ name: "exploration-guard", agentDir, cwd, isProjectTrusted: true })).toEqual({
			projectTrusted: true,
			errors: [],
		});
	});

	it("reads both layers when the project is trusted", async () => {
		writeGlobal("exploration-guard", '{"mode":"warn","warnAfter":2}');
		writeProject("exploration-guard", '{"mode":"block"}');
		expect(await load({ name: "exploration-guard", agentDir, cwd, isProjectTrusted: () => true })).toEqual({
			global: { mode: "warn", warnAfter: 2 },
			project: { mode: "block" },
			projectTrusted: true,
			errors: [],
		});
	});

	it("never reads the project layer when the project is not trusted", async () => {
		writeGlobal("exploration-guard", '{"mode":"warn"}');
		writeProject("exploration-guard", "{ not json");
		const result = await load({ name: "exploration-guard", agentDir, cwd, isProjectTrusted: false });
		expect(result).toEqual({ global: { mode: "warn" }, projectTrusted: false, errors: [] });
		const viaFunction = await load({ name: "exploration-guard", agentDir, cwd, isProjectTrusted: () => false });
		expect(viaFunction.project).toBeUndefined();
	});

	it("treats a throwing trust check as untrusted", async () => {
		writeProject("exploration-guard", '{"mode":"block"}');
		const result = await load({
			name: "exploration-guard",
			agentDir,
			cwd,
			isProjectTrusted: () => {
				throw new Error(`no trust for ${cwd}`);
			},
		});
		expect(result).toEqual({ projectTrusted: false, errors: ["project config: trust unknown"] });
	});

	it("reports malformed JSON per layer without path or content", async () => {
		writeGlobal("guardian-review", '{"mode": "/home/u/secret.ts",');
		writeProject("guardian-review", "rm -rf /");
		const result = await load({ name: "guardian-review", agentDir, cwd, isProjectTrusted: true });
		expect(result).toEqual({
			projectTrusted: true,
			errors: ["global config: invalid JSON", "project config: invalid JSON"],
		});
		const text = JSON.stringify(result);
		expect(text).not.toContain(root);
		expect(text).not.toContain("secret");
		expect(text).not.toContain("rm -rf");
	});

	it("reports an unreadable file (a directory) without its path", async () => {
		mkdirSync(join(agentDir, "policy", "context-shunt.json"));
		const result = await load({ name: "context-shunt", agentDir, cwd, isProjectTrusted: true });
		expect(result).toEqual({ projectTrusted: true, errors: ["global config: unreadable"] });
	});

	it("reports an oversized file as unreadable, like a FIFO or a device", async () => {
		writeGlobal("context-shunt", `"${"x".repeat(MAX_CONFIG_BYTES)}"`);
		const result = await load({ name: "context-shunt", agentDir, cwd, isProjectTrusted: false });
		expect(result).toEqual({ projectTrusted: false, errors: ["global config: unreadable"] });
	});

	it("accepts a byte-order mark and any JSON root", async () => {
		writeGlobal("output-minimizer", "\uFEFFfalse");
		const result = await load({ name: "output-minimizer", agentDir, cwd, isProjectTrusted: false });
		expect(result).toEqual({ global: false, projectTrusted: false, errors: [] });
	});

	it.each(["../etc/passwd", "Exploration", "", "a/b", "x".repeat(65)])("rejects the config name %j", async (name) => {
		expect(await load({ name, agentDir, cwd, isProjectTrusted: true })).toEqual({
			projectTrusted: false,
			errors: ["config: invalid name"],
		});
	});

	it("defaults agentDir to Pi's getAgentDir()", async () => {
		const previous = process.env.PI_CODING_AGENT_DIR;
		process.env.PI_CODING_AGENT_DIR = agentDir;
		try {
			writeGlobal("delegation-policy", '{"intensity":"normal"}');
			const result = await load({ name: "delegation-policy", cwd, isProjectTrusted: false });
			expect(result.global).toEqual({ intensity: "normal" });
		} finally {
			if (previous === undefined) delete process.env.PI_CODING_AGENT_DIR;
			else process.env.PI_CODING_AGENT_DIR = previous;
		}
	});
});

describe("policyConfigPaths", () => {
	it("builds the global and project paths", () => {
		expect(policyConfigPaths({ name: "guardian-review", agentDir, cwd })).toEqual({
			global: join(agentDir, "policy", "guardian-review.json"),
			project: join(cwd, CONFIG_DIR_NAME, "policy", "guardian-review.json"),
		});
	});
});

function fakePi() {
	const entries: Array<{ customType: string; data: unknown }> = [];
	const emitted: Array<{ channel: string; data: unknown }> = [];
	const pi = {
		appendEntry: (customType: string, data?: unknown) => {
			entries.push({ customType, data });
		},
		events: {
			emit: (channel: string, data: unknown) => {
				emitted.push({ channel, data });
			},
			on: () => () => {},
		},
	};
	return { pi, entries, emitted };
}

describe("createAuditWriter", () => {
	it("persists and emits a valid entry with v and ext filled in", () => {
		const { pi, entries, emitted } = fakePi();
		const writer = createAuditWriter(pi, "exploration-guard");
		expect(writer.ext).toBe("exploration-guard");
		const ok = writer.write({
			event: "warned",
			mode: "warn",
			state: "warned",
			category: "grep",
			counters: { warnings: 1 },
		});
		expect(ok).toBe(true);
		const entry = {
			v: 1,
			ext: "exploration-guard",
			event: "warned",
			mode: "warn",
			state: "warned",
			category: "grep",
			counters: { warnings: 1 },
		};
		expect(entries).toEqual([{ customType: AUDIT_ENTRY_TYPE, data: entry }]);
		expect(emitted).toEqual([{ channel: AUDIT_CHANNEL, data: entry }]);
	});

	it("drops invalid entries with one concise diagnostic each and never throws", () => {
		const { pi, entries, emitted } = fakePi();
		const diagnostics: string[] = [];
		const writer = createAuditWriter(pi, "guardian-review", { onDiagnostic: (message) => diagnostics.push(message) });
		const bad: unknown[] = [
			{ event: "rm -rf /" },
			{ event: "denied", category: "/home/u/.ssh/id_rsa" },
			{ event: "denied", command: "rm -rf /" },
			{ event: "denied", counters: { "src/**/*.ts": 1 } },
			{ event: "denied", ext: "exploration-guard" },
			{ event: "denied", v: 2 },
			null,
			"denied",
		];
		for (const fields of bad) expect(writer.write(fields as never)).toBe(false);
		expect(entries).toEqual([]);
		expect(emitted).toEqual([]);
		expect(diagnostics).toHaveLength(bad.length);
		for (const message of diagnostics) {
			expect(message).toMatch(/^guardian-review: audit entry dropped/);
			expect(message).not.toMatch(/rm -rf|\/home|ssh|\*\*/);
		}
	});

	it("reports a host failure instead of throwing", () => {
		const diagnostics: string[] = [];
		const throwing = {
			appendEntry: () => {
				throw new Error("Extension runtime not initialized at /secret/path");
			},
			events: { emit: () => {}, on: () => () => {} },
		};
		const writer = createAuditWriter(throwing, "context-shunt", {
			onDiagnostic: (message) => {
				diagnostics.push(message);
				throw new Error("sink failure");
			},
		});
		expect(writer.write({ event: "bounded", category: "bash" })).toBe(false);
		expect(diagnostics).toEqual(["context-shunt: audit entry not persisted"]);

		const { pi, entries } = fakePi();
		const emitFails = {
			...pi,
			events: {
				emit: () => {
					throw new Error("x");
				},
				on: () => () => {},
			},
		};
		const second: string[] = [];
		expect(
			createAuditWriter(emitFails, "context-shunt", { onDiagnostic: (m) => second.push(m) }).write({ event: "reset" }),
		).toBe(true);
		expect(entries).toHaveLength(1);
		expect(second).toEqual(["context-shunt: audit event not emitted"]);
	});
});

function fakeCtx(hasUI = true) {
	const notify = vi.fn();
	return { ctx: { hasUI, ui: { notify } }, notify };
}

describe("wrapHandler", () => {
	it("passes results through when the handler succeeds, sync and async", async () => {
		const sync = wrapHandler((event: number) => ({ block: event > 1, reason: "r" }), { failure: "closed", name: "h" });
		expect(sync(2, undefined)).toEqual({ block: true, reason: "r" });
		const asyncHandler = wrapHandler(async (event: number) => (event > 1 ? { block: true } : undefined), {
			failure: "open",
			name: "h",
		});
		await expect(asyncHandler(2, undefined)).resolves.toEqual({ block: true });
		await expect(asyncHandler(0, undefined)).resolves.toBeUndefined();
	});

	it("fails open on a synchronous throw: returns undefined and notifies once", () => {
		const { ctx, notify } = fakeCtx();
		const handler = wrapHandler(
			() => {
				throw new Error("ENOENT: /home/u/secret.ts");
			},
			{ failure: "open", name: "exploration-guard tool_call" },
		);
		expect(handler({}, ctx)).toBeUndefined();
		expect(handler({}, ctx)).toBeUndefined();
		expect(notify).toHaveBeenCalledTimes(1);
		expect(notify).toHaveBeenCalledWith(
			"exploration-guard tool_call failed: internal error; the original call proceeds unchanged.",
			"warning",
		);
	});

	it("fails closed on an async rejection with the default tool_call block", async () => {
		const { ctx, notify } = fakeCtx();
		const handler = wrapHandler(
			async () => {
				throw new Error("reviewer leaked /home/u/.ssh/id_rsa");
			},
			{ failure: "closed", name: "guardian-review" },
		);
		await expect(handler({}, ctx)).resolves.toEqual({
			block: true,
			reason: "guardian-review failed closed: internal error",
		});
		await handler({}, ctx);
		expect(notify).toHaveBeenCalledTimes(1);
		expect(notify.mock.calls[0]?.[1]).toBe("error");
		expect(JSON.stringify(notify.mock.calls)).not.toMatch(/ssh|home/);
	});

	it("uses closedResult as a value or factory", () => {
		const thrower = () => {
			throw new Error("x");
		};
		expect(
			wrapHandler(thrower, { failure: "closed", name: "n", closedResult: { messages: [] } })(0, undefined),
		).toEqual({
			messages: [],
		});
		expect(
			wrapHandler(thrower, { failure: "closed", name: "n", closedResult: (name: string) => ({ why: `${name}!` }) })(
				0,
				undefined,
			),
		).toEqual({ why: "n!" });
		const brokenFactory = () => {
			throw new Error("factory");
		};
		expect(wrapHandler(thrower, { failure: "closed", name: "n", closedResult: brokenFactory })(0, undefined)).toEqual({
			block: true,
			reason: "n failed closed: internal error",
		});
	});

	it("uses the report callback instead of notify, and shares a reported set across wrappers", () => {
		const { ctx, notify } = fakeCtx();
		const reports: HandlerDiagnostic[] = [];
		const reported = new Set<string>();
		const options = {
			failure: "open" as const,
			name: "shared",
			reported,
			report: (diagnostic: HandlerDiagnostic) => reports.push(diagnostic),
		};
		const thrower = () => {
			throw new Error("x");
		};
		wrapHandler(thrower, options)(0, ctx);
		wrapHandler(thrower, options)(0, ctx);
		expect(reports).toEqual([
			{
				name: "shared",
				failure: "open",
				message: "shared failed: internal error; the original call proceeds unchanged.",
			},
		]);
		expect(notify).not.toHaveBeenCalled();
	});

	it("stays silent without a UI, passes raw errors only to onError, and survives failing sinks", async () => {
		const { ctx, notify } = fakeCtx(false);
		const errors: unknown[] = [];
		const boom = new Error("raw");
		const handler = wrapHandler(
			() => {
				throw boom;
			},
			{ failure: "open", name: "n", onError: (error) => errors.push(error) },
		);
		expect(handler(0, ctx)).toBeUndefined();
		expect(notify).not.toHaveBeenCalled();
		expect(errors).toEqual([boom]);

		const failingSinks = wrapHandler(() => Promise.reject(new Error("x")), {
			failure: "closed",
			name: "n",
			report: () => {
				throw new Error("report");
			},
			onError: () => {
				throw new Error("debug");
			},
		});
		await expect(failingSinks(0, ctx)).resolves.toEqual({ block: true, reason: "n failed closed: internal error" });
		const notifyThrows = {
			hasUI: true,
			ui: {
				notify: () => {
					throw new Error("ui");
				},
			},
		};
		expect(
			wrapHandler(
				() => {
					throw new Error("x");
				},
				{ failure: "open", name: "m" },
			)(0, notifyThrows),
		).toBeUndefined();
	});
});

describe("wrapHandler typing", () => {
	it("fits pi.on without annotations, keeping event and context types", () => {
		const register = (pi: ExtensionAPI) => {
			pi.on(
				"tool_call",
				wrapHandler(
					async (event, ctx) => {
						const toolName: string = event.toolName;
						return toolName === "bash" && ctx.hasUI ? { block: true, reason: "x" } : undefined;
					},
					{ failure: "closed", name: "guardian-review tool_call" },
				),
			);
			pi.on(
				"session_start",
				wrapHandler(
					async (_event, ctx) => {
						ctx.ui.notify("ready", "info");
					},
					{ failure: "open", name: "session_start" },
				),
			);
		};
		const calls: string[] = [];
		register({ on: (event: string) => calls.push(event) } as unknown as ExtensionAPI);
		expect(calls).toEqual(["tool_call", "session_start"]);
	});
});
