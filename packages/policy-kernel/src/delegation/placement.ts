// Placement of the marked block: in plain instruction text, in a system message `sections` map, in a
// transcript (leading system message plus later patches), and in each recognised provider payload shape.
// Every function returns new values and leaves its input untouched; unknown shapes are returned as they are.
import { isPlainObject } from "../config.js";
import { DELEGATION_POLICY_SECTION } from "./render.js";

const OPEN_TAG = `<${DELEGATION_POLICY_SECTION}>`;
const CLOSE_TAG = `</${DELEGATION_POLICY_SECTION}>`;

/** The result of a placement function. */
export interface Placement<T> {
	readonly value: T;
	/** Whether anything changed. */
	readonly changed: boolean;
}

/** Every `[start, end)` range of a complete marked block in `text`, in order. */
function blockRanges(text: string): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	let from = 0;
	for (;;) {
		const start = text.indexOf(OPEN_TAG, from);
		if (start < 0) break;
		const close = text.indexOf(CLOSE_TAG, start + OPEN_TAG.length);
		if (close < 0) break;
		const end = close + CLOSE_TAG.length;
		ranges.push([start, end]);
		from = end;
	}
	return ranges;
}

/** How many complete marked blocks `text` contains. */
export function countPolicyBlocks(text: string): number {
	return typeof text === "string" ? blockRanges(text).length : 0;
}

/** Removes one range and the blank-line separator that joined it to its neighbour. */
function cutRange(text: string, start: number, end: number): string {
	let from = start;
	let to = end;
	if (text.slice(Math.max(0, from - 2), from) === "\n\n") from -= 2;
	else if (text.slice(to, to + 2) === "\n\n") to += 2;
	else if (text.slice(Math.max(0, from - 1), from) === "\n") from -= 1;
	else if (text.slice(to, to + 1) === "\n") to += 1;
	return text.slice(0, from) + text.slice(to);
}

/**
 * Puts exactly one current block into a plain instruction text: the first existing block is replaced in
 * place and any others are removed; without an existing block the block is appended after a blank line.
 * `block === undefined` removes every block. Text without blocks and no block to add is returned unchanged.
 */
export function replacePolicyBlockInText(text: string, block: string | undefined): Placement<string> {
	if (typeof text !== "string") return { value: text, changed: false };
	const ranges = blockRanges(text);
	if (ranges.length === 0) {
		if (block === undefined) return { value: text, changed: false };
		return { value: text.length === 0 ? block : `${text}\n\n${block}`, changed: true };
	}
	let result = text;
	for (let index = ranges.length - 1; index >= 0; index--) {
		const [start, end] = ranges[index] as [number, number];
		if (index === 0 && block !== undefined) result = result.slice(0, start) + block + result.slice(end);
		else result = cutRange(result, start, end);
	}
	return { value: result, changed: result !== text };
}

/** Removes every block from a plain text. */
export function removePolicyBlocksFromText(text: string): Placement<string> {
	return replacePolicyBlockInText(text, undefined);
}

type Sections = Record<string, string | null>;

/**
 * Sets the named section to `block` in a system message `sections` map (keeping its position when it is
 * already there, else appending it), or removes the section when `block` is `undefined`. Other sections
 * keep their order and text. Returns `undefined` for an empty result.
 */
export function applyPolicyBlockToSections(
	sections: Readonly<Sections> | undefined,
	block: string | undefined,
): Placement<Sections | undefined> {
	const source = isPlainObject(sections) ? (sections as Sections) : undefined;
	const next: Sections = {};
	let found = false;
	for (const [name, text] of Object.entries(source ?? {})) {
		if (name === DELEGATION_POLICY_SECTION) {
			found = true;
			if (block !== undefined) next[name] = block;
		} else next[name] = text;
	}
	if (!found && block !== undefined) next[DELEGATION_POLICY_SECTION] = block;
	const changed = block === undefined ? found : !found || source?.[DELEGATION_POLICY_SECTION] !== block;
	return { value: Object.keys(next).length > 0 ? next : undefined, changed };
}

/** Removes blocks from message content: a string or an array of `{ type: "text", text }` parts. */
function stripContent(content: unknown): Placement<unknown> {
	if (typeof content === "string") return removePolicyBlocksFromText(content);
	if (!Array.isArray(content)) return { value: content, changed: false };
	let changed = false;
	const parts = content.map((part) => {
		if (isPlainObject(part) && typeof part.text === "string") {
			const stripped = removePolicyBlocksFromText(part.text);
			if (stripped.changed) {
				changed = true;
				return { ...part, text: stripped.value };
			}
		}
		return part;
	});
	return { value: changed ? parts : content, changed };
}

function isEmptyContent(content: unknown): boolean {
	if (typeof content === "string") return content.length === 0;
	if (Array.isArray(content))
		return content.every((part) => isPlainObject(part) && part.text === "" && part.type === "text");
	return false;
}

/**
 * Places the block in a transcript that starts with the leading system message: the leading message's
 * `sections[delegation_policy]` is set (or removed), the section is dropped from every later system message
 * so no patch can override or repeat it, and stray copies of the block are removed from system message
 * content. A later system message left with nothing at all is dropped. Without a leading system message and
 * with a block to add, a system message carrying only the section is inserted at index 0.
 */
export function applyPolicyBlockToTranscript<M>(messages: readonly M[], block: string | undefined): Placement<M[]> {
	if (!Array.isArray(messages)) return { value: messages as M[], changed: false };
	let changed = false;
	const result: M[] = [];
	messages.forEach((message, index) => {
		const record = message as unknown;
		if (!isPlainObject(record) || record.role !== "system") {
			result.push(message);
			return;
		}
		const content = stripContent(record.content);
		const leading = index === 0;
		const sections = applyPolicyBlockToSections(record.sections as Sections | undefined, leading ? block : undefined);
		if (!content.changed && !sections.changed) {
			result.push(message);
			return;
		}
		changed = true;
		const next: Record<string, unknown> = { ...record, content: content.value };
		if (sections.value === undefined) delete next.sections;
		else next.sections = sections.value;
		const hasTools =
			(Array.isArray(next.toolsAdded) && next.toolsAdded.length > 0) ||
			(Array.isArray(next.toolsRemoved) && next.toolsRemoved.length > 0);
		if (!leading && next.sections === undefined && !hasTools && isEmptyContent(next.content)) return;
		result.push(next as M);
	});
	const first = result[0] as unknown;
	if (block !== undefined && !(isPlainObject(first) && first.role === "system")) {
		result.unshift({
			role: "system",
			content: "",
			sections: { [DELEGATION_POLICY_SECTION]: block },
			timestamp: 0,
		} as M);
		changed = true;
	}
	return { value: changed ? result : (messages as M[]), changed };
}

/** The provider payload shapes this module recognises. */
export const PAYLOAD_SHAPES = ["openai-chat", "openai-responses", "anthropic", "google", "unknown"] as const;
/** One of {@link PAYLOAD_SHAPES}. */
export type PayloadShape = (typeof PAYLOAD_SHAPES)[number];

/** Recognises a provider payload shape from its instruction fields. */
export function detectPayloadShape(payload: unknown): PayloadShape {
	if (!isPlainObject(payload)) return "unknown";
	if (typeof payload.system === "string" || Array.isArray(payload.system)) return "anthropic";
	if (Array.isArray(payload.contents)) return "google";
	if (typeof payload.instructions === "string" || Array.isArray(payload.input)) return "openai-responses";
	if (Array.isArray(payload.messages) && payload.messages.some(isInstructionMessage)) return "openai-chat";
	return "unknown";
}

function isInstructionMessage(message: unknown): boolean {
	return isPlainObject(message) && (message.role === "system" || message.role === "developer");
}

/** A text slot inside a payload: read and write one instruction text. */
interface TextSlot {
	read(): string;
	write(text: string): void;
}

/** The text slots of an instruction `content` (a string, or parts with `text`), writing into `holder[key]`. */
function contentSlots(holder: Record<string, unknown>, key: string): TextSlot[] {
	const content = holder[key];
	if (typeof content === "string") {
		return [
			{
				read: () => holder[key] as string,
				write: (text) => {
					holder[key] = text;
				},
			},
		];
	}
	if (!Array.isArray(content)) return [];
	const parts = content.map((part) => (isPlainObject(part) ? { ...part } : part));
	holder[key] = parts;
	const slots: TextSlot[] = [];
	for (const part of parts) {
		if (
			isPlainObject(part) &&
			typeof part.text === "string" &&
			(part.type === undefined || /text/.test(String(part.type)))
		) {
			slots.push({
				read: () => part.text as string,
				write: (text) => {
					part.text = text;
				},
			});
		}
	}
	return slots;
}

/**
 * Rewrites every slot so that exactly one current block remains: it stays where the first block was, or is
 * appended to `preferred` (the last slot by default) when there was none; `undefined` removes every block.
 */
function placeInSlots(slots: TextSlot[], block: string | undefined, preferred?: TextSlot): boolean {
	let changed = false;
	let placed = false;
	for (const slot of slots) {
		const text = slot.read();
		const hasBlock = countPolicyBlocks(text) > 0;
		const keepHere = hasBlock && !placed && block !== undefined;
		const next = replacePolicyBlockInText(text, keepHere ? block : undefined);
		if (keepHere) placed = true;
		if (next.changed) {
			slot.write(next.value);
			changed = true;
		}
	}
	if (!placed && block !== undefined) {
		const target = preferred ?? slots[slots.length - 1];
		if (target === undefined) return changed;
		target.write(replacePolicyBlockInText(target.read(), block).value);
		changed = true;
	}
	return changed;
}

function copyArray(value: unknown[]): Record<string, unknown>[] {
	return value.map((item) => (isPlainObject(item) ? { ...item } : item)) as Record<string, unknown>[];
}

function placeInMessageList(list: Record<string, unknown>[], block: string | undefined): boolean {
	const instruction = list.filter(isInstructionMessage);
	const slotsPerMessage = instruction.map((message) => contentSlots(message, "content"));
	const all = slotsPerMessage.flat();
	const firstMessageSlots = slotsPerMessage[0] ?? [];
	const preferred = firstMessageSlots[firstMessageSlots.length - 1];
	return placeInSlots(all, block, preferred);
}

/**
 * Re-applies the current block inside the recognised instruction fields of a provider payload, and returns
 * a new payload (the input is not mutated). OpenAI chat: system and developer messages in `messages[]`.
 * OpenAI Responses: `instructions`, and system or developer items in `input[]`. Anthropic: `system` (string or
 * text blocks). Google: `systemInstruction` (string or `{ parts }`), top level or inside `config`. The first
 * existing block is replaced in place and the rest removed; with no existing block it is appended to the
 * leading instruction. `block === undefined` removes every block. Unknown shapes are returned untouched.
 */
export function applyPolicyBlockToPayload(
	payload: unknown,
	block: string | undefined,
): Placement<unknown> & { shape: PayloadShape } {
	const shape = detectPayloadShape(payload);
	if (shape === "unknown" || !isPlainObject(payload)) return { value: payload, changed: false, shape };
	const next: Record<string, unknown> = { ...payload };
	let changed = false;
	switch (shape) {
		case "openai-chat": {
			const messages = copyArray(payload.messages as unknown[]);
			changed = placeInMessageList(messages, block);
			if (changed) next.messages = messages;
			break;
		}
		case "openai-responses": {
			const slots: TextSlot[] = [];
			if (typeof payload.instructions === "string") slots.push(...contentSlots(next, "instructions"));
			let input: Record<string, unknown>[] | undefined;
			let preferred: TextSlot | undefined = slots[0];
			if (Array.isArray(payload.input)) {
				input = copyArray(payload.input);
				for (const item of input.filter(isInstructionMessage)) {
					const itemSlots = contentSlots(item, "content");
					if (preferred === undefined) preferred = itemSlots[itemSlots.length - 1];
					slots.push(...itemSlots);
				}
			}
			if (slots.length === 0 && block !== undefined) {
				next.instructions = block;
				changed = true;
			} else changed = placeInSlots(slots, block, preferred);
			if (changed && input !== undefined) next.input = input;
			break;
		}
		case "anthropic": {
			const slots = contentSlots(next, "system");
			changed = placeInSlots(slots, block);
			break;
		}
		case "google": {
			changed = placeInGoogle(next, block);
			break;
		}
	}
	return changed ? { value: next, changed, shape } : { value: payload, changed: false, shape };
}

function googleSlots(holder: Record<string, unknown>): TextSlot[] {
	const instruction = holder.systemInstruction;
	if (typeof instruction === "string") return contentSlots(holder, "systemInstruction");
	if (isPlainObject(instruction) && Array.isArray(instruction.parts)) {
		const copy: Record<string, unknown> = { ...instruction };
		holder.systemInstruction = copy;
		return contentSlots(copy, "parts");
	}
	return [];
}

function placeInGoogle(payload: Record<string, unknown>, block: string | undefined): boolean {
	const config = isPlainObject(payload.config) ? { ...payload.config } : undefined;
	const slots = [...googleSlots(payload), ...(config ? googleSlots(config) : [])];
	let changed: boolean;
	if (slots.length === 0) {
		if (block === undefined) return false;
		if (config !== undefined) config.systemInstruction = block;
		else payload.systemInstruction = { parts: [{ text: block }] };
		changed = true;
	} else changed = placeInSlots(slots, block);
	if (changed && config !== undefined) payload.config = config;
	return changed;
}
