// Wraps a Pi event handler so that an internal error fails open or closed, with one concise diagnostic.
import type { ExtensionContext, ToolCallEventResult } from "@earendil-works/pi-coding-agent";
import type { FailureDirection } from "../decision.js";

/** What a wrapped handler reports after catching an error. */
export interface HandlerDiagnostic {
	/** The handler name given in the options. */
	readonly name: string;
	/** How the handler failed. */
	readonly failure: FailureDirection;
	/** A concise, user-facing message with no error text, path or user content. */
	readonly message: string;
}

/** The parts of a Pi context the wrapper may use to notify; any handler context that has them qualifies. */
export type NotifyContext = Partial<Pick<ExtensionContext, "hasUI">> & {
	readonly ui?: Partial<Pick<ExtensionContext["ui"], "notify">>;
};

/** Options for {@link wrapHandler}. */
export interface WrapHandlerOptions<R> {
	/** `open`: return `undefined`, so the call or result proceeds unchanged. `closed`: return `closedResult`. */
	readonly failure: FailureDirection;
	/** A short, stable handler name such as `"exploration-guard tool_call"`, used in messages. */
	readonly name: string;
	/**
	 * The value returned when failing closed. Defaults to the `tool_call` block
	 * `{ block: true, reason: "<name> failed closed: internal error" }`. Pass a value or a factory for other events.
	 */
	readonly closedResult?: R | ((name: string) => R);
	/**
	 * Receives the diagnostic, at most once per wrapped handler (or per name in `reported`). Without it, the
	 * wrapper calls `ctx.ui.notify` when `ctx.hasUI` is true.
	 */
	readonly report?: (diagnostic: HandlerDiagnostic, ctx: unknown) => void;
	/** Names already reported; share one set between wrappers to report once per name across them. */
	readonly reported?: Set<string>;
	/** Receives every raw error, for local debugging only; never shown to the user by the wrapper. */
	readonly onError?: (error: unknown) => void;
}

/** The default closed result for a `tool_call` handler. */
export function toolCallBlockedResult(name: string): ToolCallEventResult {
	return { block: true, reason: `${name} failed closed: internal error` };
}

function diagnosticMessage(name: string, failure: FailureDirection): string {
	return failure === "closed"
		? `${name} failed closed: internal error; the action was refused.`
		: `${name} failed: internal error; the original call proceeds unchanged.`;
}

/**
 * Wraps a handler so that it never throws or rejects. On an error it fails open (returns `undefined`) or
 * closed (returns `closedResult`, by default a `tool_call` block), and reports one concise diagnostic per
 * handler name. Synchronous handlers stay synchronous.
 */
export function wrapHandler<E, C, R = ToolCallEventResult>(
	// biome-ignore lint/suspicious/noConfusingVoidType: mirrors Pi's ExtensionHandler, whose async handlers may return nothing.
	handler: (event: E, ctx: C) => R | undefined | void | Promise<R | undefined | void>,
	options: WrapHandlerOptions<R>,
): (event: E, ctx: C) => R | undefined | Promise<R | undefined> {
	const reported = options.reported ?? new Set<string>();
	const fail = (error: unknown, ctx: C): R | undefined => {
		try {
			options.onError?.(error);
		} catch {
			// Debug sinks must not break the fallback.
		}
		if (!reported.has(options.name)) {
			reported.add(options.name);
			const diagnostic: HandlerDiagnostic = {
				name: options.name,
				failure: options.failure,
				message: diagnosticMessage(options.name, options.failure),
			};
			try {
				if (options.report !== undefined) options.report(diagnostic, ctx);
				else {
					const notifyCtx = ctx as NotifyContext | undefined;
					if (notifyCtx?.hasUI === true) {
						notifyCtx.ui?.notify?.(diagnostic.message, options.failure === "closed" ? "error" : "warning");
					}
				}
			} catch {
				// Reporting is best effort.
			}
		}
		if (options.failure === "open") return undefined;
		try {
			const closed = options.closedResult;
			if (closed === undefined) return toolCallBlockedResult(options.name) as R;
			return typeof closed === "function" ? (closed as (name: string) => R)(options.name) : closed;
		} catch {
			return toolCallBlockedResult(options.name) as R;
		}
	};
	return (event, ctx) => {
		let value: unknown;
		try {
			value = handler(event, ctx);
		} catch (error) {
			return fail(error, ctx);
		}
		if (isPromiseLike(value)) {
			return Promise.resolve(value).then(
				(resolved) => resolved as R | undefined,
				(error: unknown) => fail(error, ctx),
			);
		}
		return value as R | undefined;
	};
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
	return (
		(typeof value === "object" || typeof value === "function") &&
		value !== null &&
		typeof (value as { then?: unknown }).then === "function"
	);
}
