/**
 * Module resolution hook for `--plugin` files (registered with node:module `register`): a plugin's
 * `@persode/<pkg>` imports resolve to the harness's own packages wherever the plugin lives, so a
 * file outside the repository can import `@persode/core` and its `registerStrategy` reaches the
 * registry the benchmarks read (a second copy of core would have a registry of its own).
 */

/** Package name → the URL the harness itself loads it from. */
let packages: Readonly<Record<string, string>> = {};

/** Receives the package map from the registering thread. */
export function initialize(data: { packages: Record<string, string> }): void {
  packages = data.packages;
}

type NextResolve = (specifier: string, context: unknown) => Promise<{ url: string }>;

/** `@persode/<pkg>` → the harness's copy; everything else resolves as usual. */
export async function resolve(
  specifier: string,
  context: unknown,
  nextResolve: NextResolve,
): Promise<{ url: string; shortCircuit?: boolean }> {
  const url = packages[specifier];
  if (url !== undefined) return { url, shortCircuit: true };
  return nextResolve(specifier, context);
}
