// Session setup for vitest files: one line instead of the `let harness` / `afterEach(dispose)` / `start()` block each
// test file used to copy. Import from "@pi-policy/pi-harness/vitest" (it registers an afterEach hook).
import { afterEach } from "vitest";
import { createHarness, type Harness, type HarnessOptions } from "./index.ts";

/** The sessions of the running test: started or tracked here, disposed after each test. */
export interface SessionPerTest<O> {
	/** Start a session (the starter, or createHarness with the defaults and then `options`); disposed after the test. */
	start(options?: O): Promise<Harness>;
	/** Dispose a harness started another way after the test, too. Returns it. */
	track<H extends Harness>(harness: H): H;
	/** The session started or tracked last in this test, if any. */
	readonly current: Harness | undefined;
}

/** Options merged over the defaults; `config` and `env` merge key by key, anything else replaces. */
function mergeOptions(defaults: HarnessOptions, options: HarnessOptions): HarnessOptions {
	return {
		...defaults,
		...options,
		...(defaults.config || options.config ? { config: { ...defaults.config, ...options.config } } : {}),
		...(defaults.env || options.env ? { env: { ...defaults.env, ...options.env } } : {}),
	};
}

/**
 * Sessions for the tests of one file: `const sessions = sessionPerTest({ extensions: [ext] })`, then
 * `const harness = await sessions.start({ config: { ... } })` in a test. Pass a starter function instead of defaults
 * to reuse a package's own session builder. Every session is disposed after its test, even when the test fails.
 */
export function sessionPerTest(defaults?: HarnessOptions): SessionPerTest<HarnessOptions>;
export function sessionPerTest<O>(starter: (options: O) => Promise<Harness>): SessionPerTest<O>;
export function sessionPerTest<O>(
	setup: HarnessOptions | ((options: O) => Promise<Harness>) = {},
): SessionPerTest<O> | SessionPerTest<HarnessOptions> {
	const live: Harness[] = [];
	let current: Harness | undefined;
	afterEach(async () => {
		const open = live.splice(0);
		current = undefined;
		for (const harness of open) await harness.dispose();
	});
	const track = <H extends Harness>(harness: H): H => {
		live.push(harness);
		current = harness;
		return harness;
	};
	const start =
		typeof setup === "function"
			? async (options?: O) => track(await setup(options ?? ({} as O)))
			: async (options?: HarnessOptions) => track(await createHarness(mergeOptions(setup, options ?? {})));
	return {
		start: start as (options?: never) => Promise<Harness>,
		track,
		get current() {
			return current;
		},
	};
}
