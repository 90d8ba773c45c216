// context-shunt per-tool policy: which tools beyond the built-ins are shunted, and what text of their result counts.
import { isPlainObject } from "../config.js";
import type { ToolPolicy } from "./constants.js";

/** The tools of context-shunt itself: never shunted or aged into a loop. */
export const SHUNT_OWN_TOOLS = ["context_shunt_recover", "context_shunt_delegate"] as const;

/** True when `name` matches `pattern`, where `*` matches any run of characters and everything else is literal. */
export function matchToolGlob(pattern: string, name: string): boolean {
	if (!pattern.includes("*")) return pattern === name;
	const parts = pattern.split("*");
	const first = parts[0] ?? "";
	const last = parts[parts.length - 1] ?? "";
	if (!name.startsWith(first) || name.length < first.length + last.length || !name.endsWith(last)) return false;
	let at = first.length;
	const end = name.length - last.length;
	for (let i = 1; i < parts.length - 1; i++) {
		const part = parts[i] ?? "";
		const found = name.indexOf(part, at);
		if (found < 0 || found + part.length > end) return false;
		at = found + part.length;
	}
	return true;
}

/**
 * Delegation tools a glob never covers: output-minimizer keeps their children's whole output durable, and a receipt
 * in its place would leave only a 30-minute artifact (a twenty-sixth review). An exact key still names them.
 */
export const GLOB_EXEMPT_TOOLS = ["subagent"] as const;

/**
 * The policy of a tool that is not a built-in: an exact key wins, then the first glob in file order (never for
 * {@link GLOB_EXEMPT_TOOLS}); a tool no key names is `intact`. Built-ins (`builtin: true`) and context-shunt's own
 * tools are always `intact` here, because the built-ins keep their own contract. Never throws.
 */
export function resolveToolPolicy(
	tools: readonly (readonly [string, ToolPolicy])[],
	toolName: string,
	builtin: boolean,
): ToolPolicy {
	if (builtin || (SHUNT_OWN_TOOLS as readonly string[]).includes(toolName)) return "intact";
	for (const [pattern, policy] of tools) if (pattern === toolName) return policy;
	if ((GLOB_EXEMPT_TOOLS as readonly string[]).includes(toolName)) return "intact";
	for (const [pattern, policy] of tools) if (pattern.includes("*") && matchToolGlob(pattern, toolName)) return policy;
	return "intact";
}

/** The outcome of {@link classifyConfiguredResult}. */
export type ConfiguredResultEligibility =
	| {
			readonly eligible: true;
			/** The whole text: the server's untruncated text when the result carries it, else the visible text. */
			readonly text: string;
			/** True when `text` came from `structuredContent` (the host cut the visible text). */
			readonly fromStructured: boolean;
	  }
	| { readonly eligible: false; readonly reason: "error" | "not-text" | "binary" | "empty" };

function textBlocks(content: unknown): string | undefined {
	if (!Array.isArray(content) || content.length === 0) return undefined;
	const texts: string[] = [];
	for (const block of content) {
		if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") return undefined;
		texts.push(block.text);
	}
	return texts.join("\n");
}

/**
 * Decides whether the result of a tool whose policy is `shunt` may be preserved: successful, made only of text
 * blocks (joined with "\n", as Pi joins them), and free of NUL. JSON is eligible too (the receipt then carries an
 * outline). When `structuredContent` is an MCP `CallToolResult` whose own content is text at least as long as the
 * visible text, that untruncated text is what gets preserved: Pi cuts MCP text over 20 KB in the middle. Never throws.
 */
export function classifyConfiguredResult(result: {
	readonly isError: unknown;
	readonly content: unknown;
	readonly structuredContent?: unknown;
}): ConfiguredResultEligibility {
	if (result.isError === true) return { eligible: false, reason: "error" };
	const visible = textBlocks(result.content);
	if (visible === undefined) return { eligible: false, reason: "not-text" };
	let text = visible;
	let fromStructured = false;
	const structured = result.structuredContent;
	if (isPlainObject(structured) && structured.isError !== true) {
		const full = textBlocks(structured.content);
		if (full !== undefined && full.length > visible.length) {
			text = full;
			fromStructured = true;
		}
	}
	if (text.length === 0) return { eligible: false, reason: "empty" };
	if (text.includes("\u0000")) return { eligible: false, reason: "binary" };
	return { eligible: true, text, fromStructured };
}
