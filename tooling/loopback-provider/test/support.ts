// Small test helpers shared by the loopback-provider tests.

/** The item at `index`, or a failure that says how many items there were. */
export function itemAt<T>(items: readonly T[], index: number): T {
	const item = items[index];
	if (item === undefined) throw new Error(`expected an item at index ${index}, found ${items.length} items`);
	return item;
}
