// The `.gitmodules` text reading the armed-path walk uses (moved from guardian-review's reader into the kernel).
import { describe, expect, it } from "vitest";
import {
	dotDotFollowsName,
	gitmodulesPaths,
	isRelativeHooksPath,
	MAX_GITMODULES_PATHS,
} from "../src/guardian/index.js";

describe("gitmodulesPaths", () => {
	it("lists paths by submodule name, with a key beside its header and CRLF endings", () => {
		const listed = gitmodulesPaths('[submodule "lib"]\r\n\tpath = vendor/lib\r\n[submodule "b"] path = b\n');
		expect({ paths: listed?.paths, byName: [...(listed?.pathsByName ?? [])] }).toEqual({
			paths: ["vendor/lib", "b"],
			byName: [
				["lib", "vendor/lib"],
				["b", "b"],
			],
		});
	});

	it.each([
		["a lone carriage return", '[submodule "a"]\r\tpath = a\n'],
		["a quoted value", '[submodule "a"]\n\tpath = "odd name"\n'],
		["a comment", '[submodule "a"]\n\tpath = a # note\n'],
		["an escape", '[submodule "a"]\n\tpath = a\\\n'],
		["an empty value", '[submodule "a"]\n\tpath =\n'],
		["a `..` part", '[submodule "a"]\n\tpath = ../a\n'],
		["too many paths", "\tpath = p\n".repeat(MAX_GITMODULES_PATHS + 1)],
	])("is undefined for %s (the caller errs toward review)", (_, text) => {
		expect(gitmodulesPaths(text)).toBeUndefined();
	});

	it("isRelativeHooksPath: only values git places below the working tree", () => {
		expect(["hooks", ".husky/_", "/abs", "~/h", "~user/h"].map(isRelativeHooksPath)).toEqual([
			true,
			true,
			false,
			false,
			false,
		]);
	});
});

describe("dotDotFollowsName", () => {
	it.each([
		["lnk/../hk", true],
		["/a/../b", true],
		["~/../x", true],
		["./lnk/./../hk", true],
		["../../shared-hooks/../x", true],
		["../../shared-hooks", false],
		["..", false],
		["./../hooks", false],
		["tools/hooks", false],
		["/abs/hooks", false],
		["", false],
	])("%s: %s", (path, follows) => {
		expect(dotDotFollowsName(path)).toBe(follows);
	});
});
