import { mergeConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.base.js";

// @persode/util is processed by vitest even when it comes from node_modules (a packed install, as in
// README "Testing without the optional peer"), so persistence.test.ts's mock of node:fs/promises reaches
// the atomic writes util performs; in the workspace it is a symlink and processed anyway.
export default mergeConfig(packageTestConfig(), { test: { server: { deps: { inline: ["@persode/util"] } } } });
