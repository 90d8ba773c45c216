// The config-lifecycle acceptance checks every extension shares, as one parametrised vitest suite over real
// sessions: "$schema" accepted, a FIFO and a symlink to /dev/zero refused at once, broken configs reported once
// with file, key path (and line and column), the same text in `/x status`, and commands that answer with no
// config file without reaching the model. Each package's config-lifecycle test calls it with its own cases.
import { describe, expect, it } from "vitest";
import { createHarness, type Harness, type HarnessOptions } from "./index.ts";
import { type SpecialConfigFileKind, specialConfigFile } from "./special-files.ts";

/** The problem text of a file that is not a regular file of at most 1 MiB (kernel CONFIG_UNREADABLE_REASON). */
export const UNREADABLE_PROBLEM = "unreadable (expected a regular file of at most 1 MiB)";

/** One broken config and the problem text the lifecycle must report for it. */
export interface BrokenConfigCase {
	readonly label: string;
	/** The file content: a string verbatim, anything else as JSON. */
	readonly content: unknown;
	/** Which file holds it. Default `global`. */
	readonly file?: "global" | "project";
	/** For example `global warnAfter: expected integer between 1 and 20`. */
	readonly problem: string;
}

/** What {@link configLifecycleSuite} needs to know about one extension. */
export interface ConfigLifecycleSuiteOptions {
	/** The package folder name (config file name and audit `ext`). */
	readonly name: string;
	/** The slash command without arguments, for example `/exploration-guard`. */
	readonly command: string;
	/** Harness options for every session (extensions, tools, env); `config` and `projectConfig` are set per case. */
	readonly harness: () => Omit<HarnessOptions, "config" | "projectConfig">;
	/** A valid config that turns the extension on; the suite adds `"$schema"` to it. */
	readonly validConfig: Record<string, unknown>;
	/** Checks a session that ran with {@link ConfigLifecycleSuiteOptions.validConfig}: the extension is live. */
	readonly expectLive: (harness: Harness) => void | Promise<void>;
	/** `open`: the notification says `<name> disabled: …`; `closed`: `<name>: config invalid: …; <closedNote>.` */
	readonly failure: "open" | "closed";
	/** For `failure: "closed"`: the end of the notification. */
	readonly closedNote?: string;
	/** The status with no config file: `off (no config file)`, or a pattern of the live state. */
	readonly noConfigStatus: string | RegExp;
	/** At least invalid JSON, an unknown key and a value out of range. */
	readonly broken: readonly BrokenConfigCase[];
	/** Whether the extension reads a project file (the FIFO and /dev/zero cases then cover it too). Default true. */
	readonly projectFile?: boolean;
}

function notificationFor(options: ConfigLifecycleSuiteOptions, problem: string): string {
	return options.failure === "closed"
		? `${options.name}: config invalid: ${problem}; ${options.closedNote ?? "failing closed"}.`
		: `${options.name} disabled: ${problem}`;
}

function statusFor(options: ConfigLifecycleSuiteOptions, problem: string): string {
	return options.failure === "closed" ? `failed closed: ${problem}` : `disabled: ${problem}`;
}

/** The text of every notification, entry and status a session showed or persisted, for the privacy scan. */
function everythingShown(harness: Harness): string {
	return JSON.stringify([harness.ui?.calls ?? [], harness.entries("pi-policy.audit"), harness.requests]);
}

/** Declares the shared config-lifecycle acceptance tests for one extension. */
export function configLifecycleSuite(options: ConfigLifecycleSuiteOptions): void {
	const start = async (extra: Partial<HarnessOptions> = {}) => {
		const base = options.harness();
		return createHarness({ ...base, ...extra, extensions: [...(extra.extensions ?? []), ...(base.extensions ?? [])] });
	};
	const status = async (harness: Harness) => {
		const before = harness.ui?.notifications().length ?? 0;
		const requests = harness.requests.length;
		await harness.command(`${options.command} status`);
		const shown = harness.ui?.notifications().slice(before) ?? [];
		expect(harness.requests.length, "the command text reached the model").toBe(requests);
		expect(shown.length, "status answered").toBeGreaterThan(0);
		return shown.map((note) => note.message).join("\n");
	};
	const configInvalidEntries = (harness: Harness) =>
		harness
			.entries<{ ext?: string; event?: string }>("pi-policy.audit")
			.filter((entry) => entry.ext === options.name && entry.event === "config-invalid");

	describe(`${options.name}: config lifecycle (shared acceptance)`, () => {
		it('accepts a "$schema" key in a real session', async () => {
			const config = { $schema: `../node_modules/@pi-policy/${options.name}/schema.json`, ...options.validConfig };
			const harness = await start({ config: { [options.name]: config } });
			try {
				expect(configInvalidEntries(harness)).toEqual([]);
				expect(harness.ui?.notifications().filter((n) => n.message.includes("config invalid"))).toEqual([]);
				expect(harness.ui?.notifications().filter((n) => n.message.includes("disabled"))).toEqual([]);
				await options.expectLive(harness);
			} finally {
				await harness.dispose();
			}
		});

		const specials: Array<[SpecialConfigFileKind, "global" | "project"]> = [
			["fifo", "global"],
			["dev-zero", "global"],
			...((options.projectFile ?? true)
				? ([
						["fifo", "project"],
						["dev-zero", "project"],
					] as Array<[SpecialConfigFileKind, "global" | "project"]>)
				: []),
		];
		it.each(specials)(
			"a %s in place of the %s file gives the bounded error at once",
			async (kind, file) => {
				const harness = await start({
					extensions: [specialConfigFile(kind, options.name, file)],
					...(file === "project" ? { config: { [options.name]: options.validConfig } } : {}),
				});
				try {
					const problem = `${file}: ${UNREADABLE_PROBLEM}`;
					expect(harness.ui?.notifications().map((n) => n.message)).toEqual([notificationFor(options, problem)]);
					expect(configInvalidEntries(harness)).toHaveLength(1);
					expect(await status(harness)).toContain(statusFor(options, problem));
				} finally {
					await harness.dispose();
				}
			},
			20_000,
		);

		it.each(options.broken)("$label: one notification naming the key path, and the same in status", async (broken) => {
			const file = broken.file ?? "global";
			const harness = await start({
				...(file === "global"
					? { config: { [options.name]: broken.content } }
					: { config: { [options.name]: options.validConfig }, projectConfig: { [options.name]: broken.content } }),
			});
			try {
				expect(harness.ui?.notifications().map((n) => n.message)).toEqual([notificationFor(options, broken.problem)]);
				expect(configInvalidEntries(harness)).toEqual(
					[{ v: 1, ext: options.name, event: "config-invalid" }].map((entry) => expect.objectContaining(entry)),
				);
				expect(await status(harness)).toContain(statusFor(options, broken.problem));
				// Privacy: no path of this session in anything shown, persisted or sent.
				const shown = everythingShown(harness);
				expect(shown).not.toContain(harness.agentDir);
				expect(shown).not.toContain(harness.cwd);
			} finally {
				await harness.dispose();
			}
		});

		it("with no config file, status answers and no command text reaches the model", async () => {
			const harness = await start();
			try {
				const text = await status(harness);
				if (typeof options.noConfigStatus === "string") expect(text).toContain(options.noConfigStatus);
				else expect(text).toMatch(options.noConfigStatus);
				await harness.command(`${options.command} no-such-subcommand`);
				expect(harness.requests).toEqual([]);
				expect(configInvalidEntries(harness)).toEqual([]);
			} finally {
				await harness.dispose();
			}
		});
	});
}
