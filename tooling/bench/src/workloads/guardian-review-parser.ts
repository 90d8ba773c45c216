// The kernel's bash parser against a reference: mvdan/sh (the parser behind shfmt), run as WASM through the npm
// package sh-syntax. For each command both parse it; where both accept it they must agree on the top-level command
// boundaries, the redirects and heredocs of each top-level command, and on the structure, words, operators and
// redirects the kernel reads back from the reference's own canonical print of the command.

import { parse, print } from "sh-syntax";
import {
	type BashCommand,
	type BashList,
	type BashRedirect,
	type BashWord,
	parseBashSyntax,
} from "../../../../packages/policy-kernel/src/bash/index.ts";

/** How one command compared. */
export type ReferenceOutcome =
	/** Both accept it and agree, or both reject it. */
	| "agree"
	/** The reference accepts it, the kernel does not: the floor sends it to review. */
	| "kernel-unsure"
	/** The kernel accepts it, the reference rejects it. */
	| "reference-rejects"
	/** Both accept it and disagree. */
	| "disagree";

/** The comparison of one command, with a fixed phrase saying what differed (never the command). */
export interface ReferenceComparison {
	readonly outcome: ReferenceOutcome;
	readonly detail?: string;
}

interface RefPos {
	Offset: number;
}
interface RefWord {
	Lit?: string;
}
interface RefRedirect {
	Op: string;
	N: { Value: string } | null;
	Word: RefWord | null;
	Hdoc: RefWord | null;
}
interface RefStmt {
	Position: RefPos;
	Cmd: { Pos: RefPos; End: RefPos } | null;
	Background: boolean;
	Redirs: RefRedirect[] | null;
}
interface RefFile {
	Stmts: RefStmt[] | null;
}

/** UTF-8 byte offset of a UTF-16 offset in `text` (the reference reports byte offsets). */
function byteOffset(text: string, offset: number): number {
	return Buffer.byteLength(text.slice(0, offset), "utf8");
}

function wordSignature(word: BashWord): string {
	return word.literal !== undefined ? JSON.stringify(word.literal) : `<${[...word.expansions].sort().join(",")}>`;
}

function redirectSignature(redirect: BashRedirect): string {
	const heredoc = redirect.heredoc;
	const body = heredoc === undefined ? "" : heredoc.quoted ? `{${JSON.stringify(heredoc.body)}}` : "{…}";
	return `${redirect.fd ?? ""}${redirect.op}${wordSignature(redirect.target)}${body}`;
}

function commandSignature(command: BashCommand): string {
	const redirects = command.redirects.map(redirectSignature).join(" ");
	switch (command.kind) {
		case "simple":
			return `[${command.assignments.map((a) => `${a.name}${a.append ? "+=" : "="}${wordSignature(a.value)}`).join(" ")}|${command.words.map(wordSignature).join(" ")}|${redirects}]`;
		case "subshell":
			return `(${listSignature(command.body)})${redirects}`;
		case "group":
			return `{${listSignature(command.body)}}${redirects}`;
		case "if":
			return `if${command.clauses.map((c) => `(${listSignature(c.condition)}?${listSignature(c.body)})`).join("")}${command.elseBody ? `else(${listSignature(command.elseBody)})` : ""}${redirects}`;
		case "while":
		case "until":
			return `${command.kind}(${listSignature(command.condition)}?${listSignature(command.body)})${redirects}`;
		case "for":
			return `for ${command.variable}${command.items ? ` in ${command.items.map(wordSignature).join(" ")}` : ""}(${listSignature(command.body)})${redirects}`;
	}
}

/** The kernel tree's structure: statements, and-or operators, pipelines, commands, words and redirects. */
export function listSignature(list: BashList): string {
	return list.statements
		.map((statement) => {
			const parts: string[] = [];
			statement.pipelines.forEach((pipeline, index) => {
				if (index > 0) parts.push(statement.operators[index - 1] as string);
				const commands = pipeline.commands.map(commandSignature);
				let text = commands[0] as string;
				for (let i = 1; i < commands.length; i++) text += ` ${pipeline.operators[i - 1]} ${commands[i]}`;
				parts.push(`${pipeline.negated ? "! " : ""}${text}`);
			});
			return `${parts.join(" ")}${statement.terminator === "&" ? " &" : ""}`;
		})
		.join("; ");
}

async function referenceParse(command: string): Promise<RefFile | undefined> {
	try {
		return (await parse(command)) as unknown as RefFile;
	} catch {
		return undefined;
	}
}

/** Compares the kernel's parse of `command` with the reference's. Never throws. */
export async function compareWithReference(command: string): Promise<ReferenceComparison> {
	const kernel = parseBashSyntax(command);
	const reference = await referenceParse(command);
	if (!kernel.ok) return { outcome: reference === undefined ? "agree" : "kernel-unsure" };
	if (reference === undefined) return { outcome: "reference-rejects" };
	const statements = kernel.tree.statements;
	const refStatements = reference.Stmts ?? [];
	if (statements.length !== refStatements.length) return { outcome: "disagree", detail: "statement count" };
	for (let i = 0; i < statements.length; i++) {
		const mine = statements[i];
		const theirs = refStatements[i];
		if (mine === undefined || theirs === undefined) return { outcome: "disagree", detail: "statement count" };
		const start = theirs.Cmd?.Pos.Offset ?? theirs.Position.Offset;
		if (byteOffset(command, mine.start) !== start) return { outcome: "disagree", detail: "statement start" };
		// The reference's command end excludes the statement's redirects and runs past heredoc bodies; compare ends
		// only for statements without redirects.
		const hasRedirect = mine.pipelines.some((p) => p.commands.some((c) => c.redirects.length > 0));
		if (theirs.Cmd !== null && !hasRedirect && byteOffset(command, mine.end) !== theirs.Cmd.End.Offset) {
			return { outcome: "disagree", detail: "statement end" };
		}
		if ((mine.terminator === "&") !== theirs.Background) return { outcome: "disagree", detail: "background" };
		const only = mine.pipelines.length === 1 ? mine.pipelines[0] : undefined;
		const command0 = only?.commands.length === 1 && !only.negated ? only.commands[0] : undefined;
		if (command0 !== undefined) {
			const refRedirects = theirs.Redirs ?? [];
			if (refRedirects.length !== command0.redirects.length) return { outcome: "disagree", detail: "redirect count" };
			for (let r = 0; r < refRedirects.length; r++) {
				const a = command0.redirects[r] as BashRedirect;
				const b = refRedirects[r] as RefRedirect;
				if (a.op !== b.Op) return { outcome: "disagree", detail: "redirect operator" };
				if (String(a.fd ?? "") !== (b.N?.Value ?? "")) return { outcome: "disagree", detail: "redirect fd" };
				const lit = b.Word?.Lit ?? "";
				if (lit !== "" && a.target.literal !== undefined && !a.target.quoted && lit !== a.target.text) {
					return { outcome: "disagree", detail: "redirect target" };
				}
				const body = b.Hdoc?.Lit ?? "";
				if (a.heredoc !== undefined && !a.heredoc.stripTabs && body !== "" && body !== a.heredoc.body) {
					return { outcome: "disagree", detail: "heredoc body" };
				}
			}
		}
	}
	let printed: string;
	try {
		printed = await print(command);
	} catch {
		return { outcome: "disagree", detail: "reference cannot print" };
	}
	const reread = parseBashSyntax(printed);
	if (!reread.ok) return { outcome: "disagree", detail: "kernel rejects the reference's print" };
	if (listSignature(reread.tree) !== listSignature(kernel.tree)) return { outcome: "disagree", detail: "structure" };
	return { outcome: "agree" };
}

/** Counts of outcomes over many commands. */
export interface ReferenceTally {
	total: number;
	agree: number;
	kernelUnsure: number;
	referenceRejects: number;
	disagree: number;
	/** Fixed phrases of the disagreements, with counts. */
	details: Record<string, number>;
}

/** Compares every command and tallies the outcomes. */
export async function tallyAgainstReference(commands: readonly string[]): Promise<ReferenceTally> {
	const tally: ReferenceTally = { total: 0, agree: 0, kernelUnsure: 0, referenceRejects: 0, disagree: 0, details: {} };
	for (const command of commands) {
		const result = await compareWithReference(command);
		tally.total++;
		if (result.outcome === "agree") tally.agree++;
		else if (result.outcome === "kernel-unsure") tally.kernelUnsure++;
		else if (result.outcome === "reference-rejects") tally.referenceRejects++;
		else tally.disagree++;
		if (result.detail !== undefined) tally.details[result.detail] = (tally.details[result.detail] ?? 0) + 1;
	}
	return tally;
}
