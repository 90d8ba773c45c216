// One reader model call through ctx.modelRegistry, with a local time budget and revocable cancellation.
import type { Api, AssistantMessage, Model } from "@earendil-works/pi-ai";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { ThinkingLevel } from "@pi-policy/policy-kernel/events";
import type { ReaderRequest } from "@pi-policy/policy-kernel/shunt";

/** How one reader call ended. `text` is the raw reply, which only the kernel validator ever sees. */
export type ReaderCallOutcome =
	| { readonly kind: "answered"; readonly text: string }
	| { readonly kind: "cancelled" }
	| { readonly kind: "timed-out" }
	| { readonly kind: "failed" };

/** Timer functions, injectable for tests. */
export interface ReaderTimers {
	readonly setTimer: (callback: () => void, ms: number) => unknown;
	readonly clearTimer: (handle: unknown) => void;
}

/** A running reader call that the shell can revoke (branch change, off or reset, shutdown). */
export interface RunningReaderCall {
	readonly outcome: Promise<ReaderCallOutcome>;
	cancel(): void;
}

/**
 * Starts one model call: the reader's system prompt and one user message, nothing else. It ends at the first of:
 * the answer, `cancel()`, the tool's own abort signal, or the local time budget. A provider error is `failed`.
 */
export function startReaderCall(
	ctx: Pick<ExtensionContext, "modelRegistry">,
	model: Model<Api>,
	request: ReaderRequest,
	options: {
		readonly thinking: ThinkingLevel;
		readonly timeoutMs: number;
		readonly signal: AbortSignal | undefined;
		readonly timers: ReaderTimers;
		readonly now: () => number;
	},
): RunningReaderCall {
	const controller = new AbortController();
	let ending: "cancelled" | "timed-out" | undefined;
	const stop = (why: "cancelled" | "timed-out") => {
		ending ??= why;
		controller.abort();
	};
	const timer = options.timers.setTimer(() => stop("timed-out"), options.timeoutMs);
	const onToolAbort = () => stop("cancelled");
	options.signal?.addEventListener("abort", onToolAbort, { once: true });
	if (options.signal?.aborted) stop("cancelled");
	const aborted = new Promise<"aborted">((resolve) => {
		if (controller.signal.aborted) resolve("aborted");
		controller.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
	});

	const call = (async (): Promise<AssistantMessage> => {
		const reasoning = options.thinking === "off" ? undefined : options.thinking;
		const stream = ctx.modelRegistry.streamSimple(
			model,
			{
				systemPrompt: request.systemPrompt,
				messages: [{ role: "user", content: request.userText, timestamp: options.now() }],
			},
			{ signal: controller.signal, ...(reasoning === undefined ? {} : { reasoning }) },
		);
		return stream.result();
	})();

	const outcome = (async (): Promise<ReaderCallOutcome> => {
		try {
			const winner = await Promise.race([call, aborted]);
			if (winner === "aborted" || ending !== undefined) return { kind: ending ?? "cancelled" };
			if (winner.stopReason === "aborted") return { kind: ending ?? "cancelled" };
			if (winner.stopReason === "error") return { kind: "failed" };
			const text = winner.content
				.map((block) => (block.type === "text" ? block.text : ""))
				.join("")
				.trim();
			return { kind: "answered", text };
		} catch {
			return ending !== undefined ? { kind: ending } : { kind: "failed" };
		} finally {
			options.timers.clearTimer(timer);
			options.signal?.removeEventListener("abort", onToolAbort);
			call.catch(() => undefined);
		}
	})();

	return { outcome, cancel: () => stop("cancelled") };
}
