// A recording ExtensionUIContext: captures notify, setStatus, setWorkingMessage and dialogs, and answers dialogs
// from a script.
import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";

/**
 * A theme whose styling methods return their text unchanged, so rendered components read as plain lines.
 * Any method (`fg`, `bg`, `bold`, …) returns its last string argument.
 */
export const plainTheme: unknown = new Proxy(
	{},
	{
		get(_target, property) {
			if (property === "name") return "plain";
			if (typeof property === "symbol") return undefined;
			return (...args: unknown[]) => {
				const text = [...args].reverse().find((arg) => typeof arg === "string");
				return text ?? "";
			};
		},
	},
);

/** One recorded UI call. */
export type UiCall =
	| { kind: "notify"; message: string; level: "info" | "warning" | "error" }
	| { kind: "setStatus"; key: string; text: string | undefined }
	| { kind: "setWorkingMessage"; text: string | undefined }
	| { kind: "confirm"; title: string; message: string; answer: boolean }
	| { kind: "select"; title: string; options: string[]; answer: string | undefined }
	| { kind: "input"; title: string; answer: string | undefined }
	| { kind: "setWidget"; key: string; lines: string[] | undefined }
	| { kind: "custom"; answer: unknown };

export interface RecordingUiOptions {
	/** Answers for `confirm`, consumed in order; when exhausted, `defaultConfirm` (default false). */
	confirm?: boolean[];
	defaultConfirm?: boolean;
	/** Answers for `select`: an option string, an index into the options, or undefined for cancel. */
	select?: Array<string | number | undefined>;
	/** Answers for `input`. */
	input?: Array<string | undefined>;
	/** Answers for `custom` components; each may be a function of the component factory. */
	custom?: unknown[];
}

export interface RecordingUi {
	readonly context: ExtensionUIContext;
	/** Every UI call, in order. */
	readonly calls: UiCall[];
	/** Texts passed to notify. */
	notifications(): Array<{ message: string; level: string }>;
	/** Current footer status texts by key. */
	readonly statuses: Map<string, string>;
	/** Queue more scripted answers. */
	answer(answers: RecordingUiOptions): void;
	/** Every text the UI displayed (notifications, statuses, widgets, dialog titles and messages). */
	displayedText(): string[];
}

/** Build a recording UI with scripted dialog answers. */
export function createRecordingUi(options: RecordingUiOptions = {}): RecordingUi {
	const calls: UiCall[] = [];
	const statuses = new Map<string, string>();
	const confirms = [...(options.confirm ?? [])];
	const selects = [...(options.select ?? [])];
	const inputs = [...(options.input ?? [])];
	const customs = [...(options.custom ?? [])];
	const defaultConfirm = options.defaultConfirm ?? false;
	let editorText = "";
	let toolsExpanded = false;

	const base = {
		async select(title: string, choices: string[]) {
			const next = selects.shift();
			const answer = typeof next === "number" ? choices[next] : next;
			calls.push({ kind: "select", title, options: [...choices], answer });
			return answer;
		},
		async confirm(title: string, message: string) {
			const answer = confirms.length > 0 ? (confirms.shift() as boolean) : defaultConfirm;
			calls.push({ kind: "confirm", title, message, answer });
			return answer;
		},
		async input(title: string) {
			const answer = inputs.shift();
			calls.push({ kind: "input", title, answer });
			return answer;
		},
		notify(message: string, level: "info" | "warning" | "error" = "info") {
			calls.push({ kind: "notify", message, level });
		},
		onTerminalInput: () => () => {},
		setStatus(key: string, text: string | undefined) {
			calls.push({ kind: "setStatus", key, text });
			if (text === undefined) statuses.delete(key);
			else statuses.set(key, text);
		},
		setWorkingMessage(text?: string) {
			calls.push({ kind: "setWorkingMessage", text });
		},
		setWorkingVisible() {},
		setWorkingIndicator() {},
		setHiddenThinkingLabel() {},
		setWidget(key: string, content: unknown) {
			calls.push({ kind: "setWidget", key, lines: Array.isArray(content) ? [...content] : undefined });
		},
		setFooter() {},
		setHeader() {},
		setTitle() {},
		async custom(factory: unknown) {
			const next = customs.shift();
			const answer = typeof next === "function" ? await (next as (f: unknown) => unknown)(factory) : next;
			calls.push({ kind: "custom", answer });
			return answer;
		},
		pasteToEditor(text: string) {
			editorText += text;
		},
		setEditorText(text: string) {
			editorText = text;
		},
		getEditorText: () => editorText,
		async editor() {
			return undefined;
		},
		addAutocompleteProvider() {},
		setEditorComponent() {},
		getEditorComponent: () => undefined,
		theme: plainTheme,
		getAllThemes: () => [],
		getTheme: () => undefined,
		setTheme: () => ({ success: false, error: "UI not available" }),
		getToolsExpanded: () => toolsExpanded,
		setToolsExpanded(expanded: boolean) {
			toolsExpanded = expanded;
		},
	};

	return {
		context: base as unknown as ExtensionUIContext,
		calls,
		statuses,
		notifications: () =>
			calls.flatMap((call) => (call.kind === "notify" ? [{ message: call.message, level: call.level }] : [])),
		answer(more) {
			confirms.push(...(more.confirm ?? []));
			selects.push(...(more.select ?? []));
			inputs.push(...(more.input ?? []));
			customs.push(...(more.custom ?? []));
		},
		displayedText() {
			const texts: string[] = [];
			for (const call of calls) {
				if (call.kind === "notify") texts.push(call.message);
				else if ((call.kind === "setStatus" || call.kind === "setWorkingMessage") && call.text !== undefined)
					texts.push(call.text);
				else if (call.kind === "setWidget" && call.lines) texts.push(...call.lines);
				else if (call.kind === "confirm") texts.push(call.title, call.message);
				else if (call.kind === "select") texts.push(call.title, ...call.options);
				else if (call.kind === "input") texts.push(call.title);
			}
			return texts;
		},
	};
}
