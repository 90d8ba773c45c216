// The `/policy` view as a pi-tui component: a bordered title, one row per extension with its state, and its
// non-zero facts wrapped to the width. Any key closes it.
import { type Component, truncateToWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { type ExtensionViewState, extensionViewState, type SessionView } from "@pi-policy/policy-kernel/report";

const VIEW_STATE_COLOURS: Readonly<Record<ExtensionViewState, "dim" | "success" | "warning" | "muted">> = {
	"not loaded": "dim",
	active: "success",
	inactive: "warning",
	"loaded, no activity yet": "muted",
};

/** The colours the view uses; Pi's theme provides them (a plain identity theme works too). */
export interface ViewTheme {
	fg(color: "accent" | "dim" | "success" | "warning" | "muted", text: string): string;
	bold(text: string): string;
}

const plainTheme: ViewTheme = { fg: (_color, text) => text, bold: (text) => text };

/** Renders a {@link SessionView}. Every rendered line fits `width` columns. */
export class PolicyViewComponent implements Component {
	private readonly theme: ViewTheme;

	constructor(
		private readonly view: SessionView,
		theme?: Partial<ViewTheme> | null,
		private readonly onClose?: () => void,
	) {
		this.theme =
			theme && typeof theme.fg === "function" && typeof theme.bold === "function" ? (theme as ViewTheme) : plainTheme;
	}

	render(width: number): string[] {
		const w = Math.max(10, Math.floor(width));
		const t = this.theme;
		const lines: string[] = [];
		const push = (text: string, indent = 0) => {
			const pad = " ".repeat(indent);
			for (const line of wrapTextWithAnsi(text, Math.max(1, w - indent))) lines.push(truncateToWidth(pad + line, w));
		};
		lines.push(truncateToWidth(t.fg("accent", "─".repeat(w)), w));
		push(t.bold("pi-policy · this session"));
		push(
			t.fg(
				"muted",
				`${this.view.entries} audit entries · ${this.view.liveEvents} live events · kept out of context ${this.view.bytesKeptOut} bytes (~${this.view.approxTokensKeptOut} tokens)`,
			),
		);
		for (const ext of this.view.extensions) {
			const label = extensionViewState(ext);
			const state = t.fg(VIEW_STATE_COLOURS[label], label);
			push(`${t.bold(ext.ext)} ${state}${ext.mode !== undefined ? t.fg("dim", ` mode ${ext.mode}`) : ""}`);
			const shown = ext.facts.filter((fact) => fact.value > 0);
			if (ext.loaded && shown.length > 0) push(shown.map((f) => `${f.label} ${f.value}`).join(" · "), 2);
		}
		if (this.view.invalidEntries > 0)
			push(t.fg("warning", `${this.view.invalidEntries} invalid audit entries skipped`));
		if (this.view.telemetry !== undefined) {
			push(
				t.fg(
					"muted",
					`telemetry: ${this.view.telemetry.exported} exported · ${this.view.telemetry.dropped} batches dropped`,
				),
			);
		}
		push(t.fg("dim", "any key closes"));
		lines.push(truncateToWidth(t.fg("accent", "─".repeat(w)), w));
		return lines;
	}

	handleInput(_data: string): void {
		this.onClose?.();
	}

	invalidate(): void {}
}
