// guardian-review's modes. Import-free, so the shared audit module builds on them without an import cycle.

/** Guardian modes, weakest first: off, observe (review and record, never block), enforce. */
export const GUARDIAN_MODES = ["off", "observe", "enforce"] as const;
/** One of {@link GUARDIAN_MODES}. */
export type GuardianMode = (typeof GUARDIAN_MODES)[number];
