// exploration-guard's closed vocabularies: modes, state names and the tools it considers. Import-free, so the
// shared audit module builds the entry vocabulary on it without a cycle.

/** The guard's modes: `off` registers nothing, `warn` only nudges, `block` nudges then blocks isolated calls. */
export const EXPLORATION_GUARD_MODES = ["off", "warn", "block"] as const;

/** One of {@link EXPLORATION_GUARD_MODES}. */
export type ExplorationGuardMode = (typeof EXPLORATION_GUARD_MODES)[number];

/** The states of the guard, as the spec and the audit vocabulary name them. */
export const EXPLORATION_GUARD_STATES = [
	"tracking",
	"warned",
	"delegation-pending",
	"fallback-warn-only",
	"bypassed",
	"blocking",
] as const;

/** One of {@link EXPLORATION_GUARD_STATES}. */
export type ExplorationGuardStateName = (typeof EXPLORATION_GUARD_STATES)[number];

/** The only tools the guard ever considers; also the audit categories of exploration-guard. */
export const EXPLORATION_CATEGORIES = ["read", "grep", "find", "ls"] as const;

/** One of {@link EXPLORATION_CATEGORIES}. */
export type ExplorationCategory = (typeof EXPLORATION_CATEGORIES)[number];

/** How bash exploration counts: `auto` when grep, find and ls are not all active tools, `count` always, `off` never. */
export const EXPLORATION_BASH_MODES = ["auto", "count", "off"] as const;

/** One of {@link EXPLORATION_BASH_MODES}. */
export type ExplorationBashMode = (typeof EXPLORATION_BASH_MODES)[number];
