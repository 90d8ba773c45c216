// output-minimizer's closed vocabulary: its modes. Import-free, so the shared audit module builds on it without a
// cycle.

/** The modes of output-minimizer: `off` does nothing, `reference` (the default) minimizes delegated output. */
export const OUTPUT_MINIMIZER_MODES = ["off", "reference"] as const;

/** One of {@link OUTPUT_MINIMIZER_MODES}. */
export type OutputMinimizerMode = (typeof OUTPUT_MINIMIZER_MODES)[number];
