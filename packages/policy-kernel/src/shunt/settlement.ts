// context-shunt settlement: what happens to one finished tool result, for enforce and for observe's simulation.
import { classifyResultEligibility } from "./admission.js";
import type { ShuntLimits } from "./config.js";
import {
	ARTIFACT_QUOTA,
	isShuntTool,
	type ShuntMode,
	type ShuntTool,
	TOOL_ARTIFACT_RULES,
	type ToolPolicy,
} from "./constants.js";
import { outlineJson, parseJsonText } from "./json.js";
import { type ArtifactLedger, type ArtifactSource, type LedgerBounds, reduceArtifactLedger } from "./ledger.js";
import { checkResultLimits, limitsForScope, type ScopeLimits } from "./limits.js";
import { classifyConfiguredResult } from "./tool-policy.js";

/** The quota pool of configured tools, from config. */
export function toolLedgerBounds(config: { toolArtifactBytes: number; toolSessionBytes: number }): LedgerBounds {
	return {
		maxArtifacts: TOOL_ARTIFACT_RULES.maxArtifacts,
		maxTotalBytes: config.toolSessionBytes,
		maxArtifactBytes: config.toolArtifactBytes,
		ttlMs: ARTIFACT_QUOTA.ttlMs,
	};
}

/** One finished tool result, as settlement reads it. */
export interface SettlementInput {
	readonly mode: ShuntMode;
	readonly toolName: string;
	/** Provenance `builtin:<name>`. */
	readonly builtin: boolean;
	/** The `tools` policy of a non-built-in tool ({@link resolveToolPolicy}). */
	readonly policy: ToolPolicy;
	readonly isError: unknown;
	readonly content: unknown;
	readonly structuredContent?: unknown;
	readonly input: unknown;
	readonly limits: ShuntLimits;
	/** A consumed user grant's limits and admitted lines, for this call. */
	readonly grant?: { readonly maxLines: number; readonly maxBytes: number; readonly admittedLines: number };
	/** Observe mode: the call was counted as would-block before it ran. */
	readonly wasWouldBlocked: boolean;
}

/** What to do with a result. */
export type SettlementDecision =
	/** Leave it intact, count nothing. */
	| { readonly kind: "pass" }
	/** A same-named non-built-in tool over the limits: intact, counted as uncovered. */
	| { readonly kind: "uncovered" }
	/** Observe: enforce would preserve it. The shell simulates the reservation ({@link simulateReservation}). */
	| {
			readonly kind: "would-bound";
			readonly source: ShuntTool | "tool";
			readonly bytes: number;
			readonly lines: number;
	  }
	/** Enforce: preserve `text` and return a receipt. */
	| {
			readonly kind: "preserve";
			readonly source: ShuntTool | "tool";
			readonly toolName: string;
			readonly text: string;
			readonly bytes: number;
			readonly lines: number;
			readonly limits: ScopeLimits;
			/** The outline of a JSON result (configured tools), shown in the receipt instead of a preview. */
			readonly jsonOutline: string | undefined;
	  };

/**
 * Settles one result. Built-in read/bash/powershell/grep keep seed 004's contract ({@link classifyResultEligibility}:
 * JSON, errors, binaries and mixed blocks stay intact). A non-built-in tool whose policy is `shunt` is measured against
 * the targeted limits on its whole text; JSON is preserved whole with an outline. Everything else passes. In observe,
 * an over-limit result becomes `would-bound` unless the call was already counted as would-block. Never throws.
 */
export function settleToolResult(input: SettlementInput): SettlementDecision {
	if (input.mode === "off") return { kind: "pass" };
	if (!input.builtin && input.policy === "shunt") {
		const eligible = classifyConfiguredResult(input);
		if (!eligible.eligible) return { kind: "pass" };
		const limits = limitsForScope(input.limits, "targeted");
		const check = checkResultLimits(eligible.text, limits);
		if (!check.over) return { kind: "pass" };
		if (input.mode === "observe") {
			return { kind: "would-bound", source: "tool", bytes: check.bytes, lines: check.returnedLines };
		}
		const json = parseJsonText(eligible.text);
		return {
			kind: "preserve",
			source: "tool",
			toolName: input.toolName,
			text: eligible.text,
			bytes: check.bytes,
			lines: check.returnedLines,
			limits,
			jsonOutline: json === undefined ? undefined : outlineJson(json.value),
		};
	}
	const eligibility = classifyResultEligibility({
		toolName: input.toolName,
		builtin: input.builtin,
		isError: input.isError,
		content: input.content,
		input: input.input,
	});
	if (!eligibility.eligible) {
		if (eligibility.reason === "not-builtin" && isShuntTool(input.toolName)) {
			const content = input.content as Array<{ type?: unknown; text?: unknown }> | undefined;
			const block = Array.isArray(content) && content.length === 1 ? content[0] : undefined;
			const text = block?.type === "text" && typeof block.text === "string" ? block.text : "";
			if (checkResultLimits(text, limitsForScope(input.limits, "targeted")).over) return { kind: "uncovered" };
		}
		return { kind: "pass" };
	}
	const limits =
		input.grant !== undefined
			? { maxLines: input.grant.maxLines, maxBytes: input.grant.maxBytes }
			: limitsForScope(input.limits, eligibility.scope);
	const check = checkResultLimits(eligibility.text, limits, input.grant?.admittedLines ?? eligibility.declaredLines);
	if (!check.over) return { kind: "pass" };
	if (input.mode === "observe") {
		if (input.wasWouldBlocked) return { kind: "pass" };
		return { kind: "would-bound", source: eligibility.tool, bytes: check.bytes, lines: check.returnedLines };
	}
	return {
		kind: "preserve",
		source: eligibility.tool,
		toolName: input.toolName,
		text: eligibility.text,
		bytes: check.bytes,
		lines: check.returnedLines,
		limits,
		jsonOutline: undefined,
	};
}

/**
 * Observe mode's simulation: reserves a would-bound result in the simulated ledger exactly as enforce would reserve
 * it in the real one, so observe counts what enforce would preserve over the same window. Returns the next simulated
 * ledger and whether enforce would have admitted it. Never throws.
 */
export function simulateReservation(
	ledger: ArtifactLedger,
	decision: { readonly source: ArtifactSource; readonly bytes: number; readonly lines: number },
	id: string,
	now: number,
	toolBounds: LedgerBounds,
): { ledger: ArtifactLedger; admitted: boolean } {
	const result = reduceArtifactLedger(ledger, {
		type: "reserve",
		id,
		source: decision.source,
		bytes: decision.bytes,
		lines: decision.lines,
		now,
		...(decision.source === "tool" ? { bounds: toolBounds } : {}),
	});
	return { ledger: result.state, admitted: result.effects.some((effect) => effect.type === "reserved") };
}
