// The `/delegate` panel: a pi-tui component that edits a draft of the session layer. A compact effective
// preview on top, one row per setting, a hint block for the focused row, a model picker, and the actions
// Apply, Save effective configuration as defaults, and Reset draft. Decisions come from the kernel.
import { type Component, matchesKey, truncateToWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import {
	ADVISOR_MODES,
	type CatalogueModel,
	cloneSettings,
	DELEGATION_INTENSITIES,
	DELEGATION_PREFERENCES,
	DELEGATION_ROLES,
	type DelegationPolicySettings,
	type DelegationRole,
	type DelegationValidation,
	type EffectiveDelegationPolicy,
	findCatalogueModel,
	formatRoleReference,
	formatThinkingPolicy,
	type ModelCatalogue,
	type Provenance,
	ROLE_LABELS,
	type ThinkingLevel,
} from "@pi-policy/policy-kernel/delegation";

/** The styling the panel uses; Pi's theme satisfies it. */
export interface PanelTheme {
	fg(color: "accent" | "muted" | "dim" | "warning" | "error" | "success", text: string): string;
	bold(text: string): string;
}

/** A validated preview of a draft. */
export interface PanelPreview {
	readonly effective: EffectiveDelegationPolicy;
	readonly validation: DelegationValidation;
	readonly footer: string;
}

/** What the panel needs from the shell. */
export interface PanelHost {
	/** The committed session layer. */
	committed(): DelegationPolicySettings;
	/** Validates a draft session layer. */
	preview(draft: DelegationPolicySettings): PanelPreview;
	/** The model catalogue, for the picker (transient metadata, never persisted). */
	catalogue(): ModelCatalogue;
	/** Commits the draft as the session layer. */
	apply(draft: DelegationPolicySettings): void;
	/** Applies the draft and writes its effective configuration as global defaults. */
	saveDefaults(draft: DelegationPolicySettings): Promise<boolean>;
}

/** How the panel closed. */
export type PanelResult = { readonly closed: "unchanged" | "discarded" | "applied" };

type RowKind =
	| { kind: "intensity" }
	| { kind: "preference" }
	| { kind: "advisorMode" }
	| { kind: "model"; role: DelegationRole }
	| { kind: "thinking"; role: DelegationRole }
	| { kind: "apply" }
	| { kind: "save" }
	| { kind: "reset" };

const ROWS: readonly RowKind[] = [
	{ kind: "intensity" },
	{ kind: "preference" },
	{ kind: "advisorMode" },
	...DELEGATION_ROLES.flatMap((role): RowKind[] => [
		{ kind: "model", role },
		{ kind: "thinking", role },
	]),
	{ kind: "apply" },
	{ kind: "save" },
	{ kind: "reset" },
];

const PICKER_PINNED = ["Use global default", "Disable for this session"] as const;
const PICKER_VISIBLE_MODELS = 8;

interface PickerState {
	role: DelegationRole;
	filter: string;
	index: number;
	models: readonly CatalogueModel[];
}

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

function formatContextWindow(tokens: number | undefined): string {
	if (tokens === undefined) return "";
	return tokens >= 1000 ? `ctx ${Math.round(tokens / 1000)}k` : `ctx ${tokens}`;
}

/** One picker line: the model id first, transient metadata, `[provider]` last. */
export function formatPickerModel(model: CatalogueModel): string {
	const meta = [formatContextWindow(model.contextWindow), model.reasoning ? "reasoning" : ""]
		.filter((part) => part.length > 0)
		.join(" · ");
	return `${model.id}${meta ? `  ${meta}` : ""}  [${model.provider}]`;
}

/** The `/delegate` panel component. */
export class DelegationPanel implements Component {
	private draft: DelegationPolicySettings;
	private focus = 0;
	private picker: PickerState | undefined;
	private confirmingClose = false;
	private message: string | undefined;
	private applied = false;
	private busy = false;

	constructor(
		private readonly host: PanelHost,
		private readonly theme: PanelTheme,
		private readonly done: (result: PanelResult) => void,
		private readonly requestRender: () => void = () => {},
	) {
		this.draft = cloneSettings(host.committed());
	}

	/** The current draft (for tests and the host). */
	get draftSettings(): DelegationPolicySettings {
		return cloneSettings(this.draft);
	}

	private modified(): boolean {
		return !sameJson(this.draft, this.host.committed());
	}

	invalidate(): void {}

	render(width: number): string[] {
		const w = Math.max(20, width);
		const lines = this.picker ? this.renderPicker(this.picker, w) : this.renderMain(w);
		return lines.map((line) => truncateToWidth(line, w, "…"));
	}

	private renderMain(width: number): string[] {
		const t = this.theme;
		const preview = this.host.preview(this.draft);
		const lines: string[] = [];
		lines.push(t.bold(`Delegation policy${this.modified() ? " (draft modified)" : ""}`));
		lines.push(...wrapTextWithAnsi(`Effective: ${this.previewSummary(preview)}`, width));
		lines.push(t.fg("dim", "─".repeat(Math.min(width, 60))));
		const labelWidth = Math.max(8, Math.min(20, Math.floor(width * 0.35)));
		ROWS.forEach((row, index) => {
			const pointer = index === this.focus ? t.fg("accent", "> ") : "  ";
			const { label, value, source } = this.describeRow(row, preview);
			if (value === undefined) lines.push(`${pointer}${index === this.focus ? t.bold(label) : label}`);
			else {
				const padded = label.length >= labelWidth ? `${label.slice(0, labelWidth - 2)}… ` : label.padEnd(labelWidth);
				lines.push(`${pointer}${padded}${value}${source ? t.fg("muted", ` [${source}]`) : ""}`);
			}
		});
		lines.push(t.fg("dim", "─".repeat(Math.min(width, 60))));
		if (this.confirmingClose) {
			lines.push(t.fg("warning", "The draft has changes that are not applied."));
			lines.push("k: keep editing · d: discard and close");
			return lines;
		}
		for (const hint of this.hint(ROWS[this.focus] as RowKind, preview)) lines.push(...wrapTextWithAnsi(hint, width));
		const errors = preview.validation.diagnostics.filter((entry) => entry.severity === "error").slice(0, 3);
		for (const entry of errors) lines.push(...wrapTextWithAnsi(t.fg("error", entry.message), width));
		if (this.message) lines.push(t.fg("success", this.message));
		lines.push(t.fg("dim", "↑↓ move · ←→ change · Enter choose · Esc close"));
		return lines;
	}

	private previewSummary(preview: PanelPreview): string {
		const parts = [preview.footer];
		for (const role of DELEGATION_ROLES) {
			const value = preview.effective.roles[role].value;
			if (value === undefined) continue;
			parts.push(`${role} ${value === null ? "off" : formatRoleReference(value)}`);
		}
		return parts.join(" · ");
	}

	private describeRow(row: RowKind, preview: PanelPreview): { label: string; value?: string; source?: Provenance } {
		const effective = preview.effective;
		switch (row.kind) {
			case "intensity":
				return { label: "Intensity", value: effective.intensity.value, source: effective.intensity.source };
			case "preference":
				return { label: "Preference", value: effective.preference.value, source: effective.preference.source };
			case "advisorMode":
				return { label: "Advisor mode", value: effective.advisorMode.value, source: effective.advisorMode.source };
			case "model": {
				const slot = effective.roles[row.role];
				const value =
					slot.value === undefined
						? "not configured"
						: slot.value === null
							? "disabled"
							: formatRoleReference(slot.value);
				const status = preview.validation.roles[row.role].status === "error" ? " (!)" : "";
				return { label: `${ROLE_LABELS[row.role]} model`, value: `${value}${status}`, source: slot.source };
			}
			case "thinking": {
				const slot = effective.thinking[row.role];
				return {
					label: `${ROLE_LABELS[row.role]} thinking`,
					value: formatThinkingPolicy(slot.value),
					source: slot.source,
				};
			}
			case "apply":
				return { label: "[ Apply ]" };
			case "save":
				return { label: "[ Save effective configuration as defaults ]" };
			case "reset":
				return { label: "[ Reset draft ]" };
		}
	}

	private hint(row: RowKind, preview: PanelPreview): string[] {
		const sources = (source: Provenance) =>
			`Source: ${source}. Session values override global defaults; unset values use the built-in default.`;
		switch (row.kind) {
			case "intensity":
				return [
					"How hard the main agent should delegate: off, normal, aggressive or orchestrator.",
					sources(preview.effective.intensity.source),
				];
			case "preference":
				return [
					"Tie-break between Small and Medium only: efficient (Small), standard, intensive (Medium).",
					sources(preview.effective.preference.source),
				];
			case "advisorMode":
				return [
					"on: the Advisor is used whenever configured; with-delegation: only while delegation is active; off: never.",
					sources(preview.effective.advisorMode.source),
				];
			case "model":
				return [
					`Model of the ${ROLE_LABELS[row.role]} role. Enter opens the picker (type to filter).`,
					sources(preview.effective.roles[row.role].source),
				];
			case "thinking":
				return [
					`Thinking of the ${ROLE_LABELS[row.role]} role: ←→ offers only the levels its model supports.`,
					sources(preview.effective.thinking[row.role].source),
				];
			case "apply":
				return ["Apply the draft to this session; the next request uses it."];
			case "save":
				return ["Apply the draft, then save the effective configuration as global defaults."];
			case "reset":
				return ["Drop the draft's changes and start again from the applied session state."];
		}
	}

	private renderPicker(picker: PickerState, width: number): string[] {
		const t = this.theme;
		const entries = this.pickerEntries(picker);
		const lines = [t.bold(`Model for ${ROLE_LABELS[picker.role]}`), `Filter: ${picker.filter}_`];
		const modelStart = PICKER_PINNED.length;
		const selectedModel = picker.index - modelStart;
		const first = Math.max(
			0,
			Math.min(selectedModel - PICKER_VISIBLE_MODELS + 1, entries.length - modelStart - PICKER_VISIBLE_MODELS),
		);
		entries.forEach((entry, index) => {
			if (index >= modelStart) {
				const position = index - modelStart;
				if (position < first || position >= first + PICKER_VISIBLE_MODELS) return;
			}
			const pointer = index === picker.index ? t.fg("accent", "> ") : "  ";
			lines.push(`${pointer}${entry.label}`);
		});
		if (entries.length === modelStart) lines.push(t.fg("muted", "  no model matches the filter"));
		lines.push(
			...wrapTextWithAnsi(t.fg("dim", "Model metadata is shown for choosing only and is never stored."), width),
		);
		lines.push(t.fg("dim", "type to filter · ↑↓ move · Enter choose · Esc back"));
		return lines;
	}

	private pickerEntries(picker: PickerState): Array<{ label: string; value: "default" | null | CatalogueModel }> {
		const filter = picker.filter.toLowerCase();
		const models = picker.models.filter(
			(model) => filter.length === 0 || `${model.id} ${model.provider}`.toLowerCase().includes(filter),
		);
		return [
			{ label: PICKER_PINNED[0], value: "default" },
			{ label: PICKER_PINNED[1], value: null },
			...models.map((model) => ({ label: formatPickerModel(model), value: model })),
		];
	}

	handleInput(data: string): void {
		if (this.busy) return;
		if (this.picker) this.handlePickerInput(this.picker, data);
		else if (this.confirmingClose) this.handleConfirmInput(data);
		else this.handleMainInput(data);
		this.requestRender();
	}

	private handleConfirmInput(data: string): void {
		if (data === "d" || data === "D") {
			this.draft = cloneSettings(this.host.committed());
			this.done({ closed: "discarded" });
		} else if (data === "k" || data === "K" || matchesKey(data, "escape")) this.confirmingClose = false;
	}

	private handleMainInput(data: string): void {
		const row = ROWS[this.focus] as RowKind;
		if (matchesKey(data, "up")) this.focus = (this.focus + ROWS.length - 1) % ROWS.length;
		else if (matchesKey(data, "down") || matchesKey(data, "tab")) this.focus = (this.focus + 1) % ROWS.length;
		else if (matchesKey(data, "left")) this.change(row, -1);
		else if (matchesKey(data, "right")) this.change(row, 1);
		else if (matchesKey(data, "enter") || matchesKey(data, "space")) this.activate(row);
		else if (matchesKey(data, "escape")) {
			if (this.modified()) this.confirmingClose = true;
			else this.done({ closed: this.applied ? "applied" : "unchanged" });
		}
	}

	private change(row: RowKind, step: number): void {
		this.message = undefined;
		const preview = this.host.preview(this.draft);
		const cycle = <T extends string>(values: readonly T[], current: T): T => {
			const index = values.indexOf(current);
			return values[(index + step + values.length) % values.length] as T;
		};
		switch (row.kind) {
			case "intensity":
				this.draft = { ...this.draft, intensity: cycle(DELEGATION_INTENSITIES, preview.effective.intensity.value) };
				break;
			case "preference":
				this.draft = { ...this.draft, preference: cycle(DELEGATION_PREFERENCES, preview.effective.preference.value) };
				break;
			case "advisorMode":
				this.draft = { ...this.draft, advisorMode: cycle(ADVISOR_MODES, preview.effective.advisorMode.value) };
				break;
			case "thinking":
				this.cycleThinking(row.role, step, preview);
				break;
			case "model":
				this.openPicker(row.role);
				break;
			default:
				break;
		}
	}

	/** The thinking choices of a role: `default`, then only the levels its draft model supports. */
	thinkingChoices(role: DelegationRole): Array<"default" | ThinkingLevel> {
		const preview = this.host.preview(this.draft);
		const reference = preview.effective.roles[role].value;
		const model = reference ? findCatalogueModel(this.host.catalogue(), reference) : undefined;
		return ["default", ...(model?.thinkingLevels ?? [])];
	}

	private cycleThinking(role: DelegationRole, step: number, preview: PanelPreview): void {
		const choices = this.thinkingChoices(role);
		const current = this.draft.thinking?.[role];
		const currentKey = current === undefined ? "default" : "level" in current ? current.level : "default";
		const index = Math.max(0, choices.indexOf(currentKey as "default" | ThinkingLevel));
		const next = choices[(index + step + choices.length) % choices.length] ?? "default";
		const thinking = { ...(this.draft.thinking ?? {}) };
		if (next === "default") delete thinking[role];
		else thinking[role] = { level: next };
		this.draft = { ...this.draft, thinking };
		if (Object.keys(thinking).length === 0) delete this.draft.thinking;
		void preview;
	}

	private openPicker(role: DelegationRole): void {
		const models = [...this.host.catalogue().models].sort((a, b) =>
			a.id === b.id ? a.provider.localeCompare(b.provider) : a.id.localeCompare(b.id),
		);
		this.picker = { role, filter: "", index: 0, models };
	}

	private handlePickerInput(picker: PickerState, data: string): void {
		const entries = this.pickerEntries(picker);
		if (matchesKey(data, "escape")) this.picker = undefined;
		else if (matchesKey(data, "up")) picker.index = (picker.index + entries.length - 1) % entries.length;
		else if (matchesKey(data, "down")) picker.index = (picker.index + 1) % entries.length;
		else if (matchesKey(data, "backspace")) {
			picker.filter = picker.filter.slice(0, -1);
			picker.index = 0;
		} else if (matchesKey(data, "enter")) {
			const entry = entries[picker.index];
			if (entry !== undefined) this.chooseModel(picker.role, entry.value);
			this.picker = undefined;
		} else if (data.length === 1 && data >= " " && data <= "~") {
			picker.filter += data;
			picker.index = this.pickerEntries(picker).length > PICKER_PINNED.length ? PICKER_PINNED.length : 0;
		}
	}

	private chooseModel(role: DelegationRole, value: "default" | null | CatalogueModel): void {
		const roles = { ...(this.draft.roles ?? {}) };
		if (value === "default") delete roles[role];
		else roles[role] = value === null ? null : { provider: value.provider, model: value.id };
		this.draft = { ...this.draft, roles };
		if (Object.keys(roles).length === 0) delete this.draft.roles;
	}

	private activate(row: RowKind): void {
		this.message = undefined;
		switch (row.kind) {
			case "apply":
				this.host.apply(cloneSettings(this.draft));
				this.draft = cloneSettings(this.host.committed());
				this.applied = true;
				this.message = "Applied to this session.";
				break;
			case "save":
				this.busy = true;
				void this.host
					.saveDefaults(cloneSettings(this.draft))
					.then((saved) => {
						this.draft = cloneSettings(this.host.committed());
						this.applied = true;
						this.message = saved ? "Saved as global defaults." : "Could not save the global defaults.";
					})
					.catch(() => {
						this.message = "Could not save the global defaults.";
					})
					.finally(() => {
						this.busy = false;
						this.requestRender();
					});
				break;
			case "reset":
				this.draft = cloneSettings(this.host.committed());
				this.message = "Draft reset.";
				break;
			case "model":
				this.openPicker(row.role);
				break;
			default:
				this.change(row, 1);
		}
	}

	/** Resolves once a pending save has finished (for tests and the host). */
	async settled(): Promise<void> {
		while (this.busy) await new Promise((resolve) => setTimeout(resolve, 5));
	}
}
