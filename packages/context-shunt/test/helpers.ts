// Shared helpers for context-shunt session tests: a fake clock, harness setup, shutdown, and real texts.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI, InlineExtension } from "@earendil-works/pi-coding-agent";
import { createHarness, type Harness, type HarnessOptions } from "@pi-policy/pi-harness";
import { AUDIT_ENTRY_TYPE, type AuditEntryV1, validateAuditEntry } from "@pi-policy/policy-kernel/audit";
import { type ContextShuntOptions, createContextShunt, DELEGATE_TOOL, RECOVER_TOOL } from "../src/index.ts";

/** A manual clock and timer queue: `advance(ms)` moves time and fires due timers in order. */
export function fakeClock(start = Date.UTC(2025, 0, 1)) {
	let current = start;
	let nextId = 1;
	const pending = new Map<number, { at: number; callback: () => void }>();
	return {
		now: () => current,
		setTimer: (callback: () => void, ms: number) => {
			const id = nextId++;
			pending.set(id, { at: current + ms, callback });
			return id;
		},
		clearTimer: (handle: unknown) => {
			pending.delete(handle as number);
		},
		pendingTimers: () => pending.size,
		advance(ms: number) {
			current += ms;
			const due = [...pending.entries()].filter(([, t]) => t.at <= current).sort((a, b) => a[1].at - b[1].at);
			for (const [id, timer] of due) {
				pending.delete(id);
				timer.callback();
			}
		},
	};
}

export const SHUNT_TOOLS = ["read", "bash", "grep", "find", "ls", RECOVER_TOOL, DELEGATE_TOOL];

export interface ShuntSession {
	harness: Harness;
	tempRoot: string;
	/** Store directories created so far. */
	storeDirs: string[];
	/** Emits session_shutdown the way the runtime does on quit. */
	shutdown(): Promise<void>;
	dispose(): Promise<void>;
	audit(): AuditEntryV1[];
	text(index: number): string;
	lastToolText(): string;
}

/** Starts a harness with context-shunt (from source) and a private temp root for its store. */
export async function startShunt(
	config: Record<string, unknown> | string | undefined,
	options: Omit<ContextShuntOptions, "tempRoot" | "onStoreCreated"> = {},
	harness: HarnessOptions & { before?: InlineExtension[]; after?: InlineExtension[] } = {},
): Promise<ShuntSession> {
	const tempRoot = await mkdtemp(join(tmpdir(), "cs-test-"));
	const storeDirs: string[] = [];
	const extension = createContextShunt({ ...options, tempRoot, onStoreCreated: (dir) => storeDirs.push(dir) });
	const h = await createHarness({
		tools: SHUNT_TOOLS,
		...harness,
		extensions: [...(harness.before ?? []), extension, ...(harness.after ?? [])],
		...(config === undefined ? {} : { config: { "context-shunt": config } }),
	});
	const session: ShuntSession = {
		harness: h,
		tempRoot,
		storeDirs,
		async shutdown() {
			await h.shutdown();
		},
		async dispose() {
			await session.shutdown();
			await h.dispose();
			await rm(tempRoot, { recursive: true, force: true });
		},
		audit() {
			return h.entries(AUDIT_ENTRY_TYPE).map((entry) => {
				const checked = validateAuditEntry(entry);
				if (!checked.ok) throw new Error(`invalid audit entry: ${checked.error}`);
				return checked.value;
			});
		},
		text(index) {
			const result = h.toolResults()[index];
			if (result === undefined) throw new Error(`no tool result ${index}`);
			return h.toolResultText(result);
		},
		lastToolText() {
			const results = h.toolResults();
			return session.text(results.length - 1);
		},
	};
	return session;
}

/** Files in a directory, or `undefined` when it does not exist. */
export async function listDir(dir: string): Promise<string[] | undefined> {
	try {
		return await readdir(dir);
	} catch {
		return undefined;
	}
}

/** A deterministic log of `count` lines, each `width` characters plus "\n". */
export function makeLog(count: number, width = 40, tag = "log"): string {
	let out = "";
	for (let i = 1; i <= count; i++) {
		const head = `${tag} ${i} `;
		out += `${head}${"x".repeat(Math.max(0, width - head.length))}\n`;
	}
	return out;
}

/** An extension that records the original content of every tool result (load it before context-shunt). */
export function originalsProbe(into: Map<string, string>): (pi: ExtensionAPI) => void {
	return (pi) => {
		pi.on("tool_result", (event) => {
			const block = event.content[0];
			if (event.content.length === 1 && block?.type === "text") into.set(event.toolCallId, block.text);
		});
	};
}

/** The artifact id inside a receipt. */
export function artifactIdOf(text: string): string {
	const match = /csa_[0-9a-f]{24}/.exec(text);
	if (match === null) throw new Error("no artifact id in text");
	return match[0];
}

/** The exception token inside a block reason. */
export function tokenOf(text: string): string {
	const match = /cst_[0-9a-f]{12}/.exec(text);
	if (match === null) throw new Error("no token in text");
	return match[0];
}
