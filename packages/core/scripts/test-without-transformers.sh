#!/usr/bin/env bash
# @persode/core without its optional peer (issue 21): (1) a user's install of the packed library brings in
# neither @huggingface/transformers nor onnxruntime, and hashing works there; (2) core's own test suite
# passes in a copy of the package where the peer is not installed (the transformers.js tests are skipped,
# each naming why, and test/transformers-lazy.test.ts checks the error such a user gets instead).
# Usage: bash packages/core/scripts/test-without-transformers.sh [SCRATCH_DIR]
#   SCRATCH_DIR: an empty folder outside the repository (default: a fresh temporary folder, removed after).
# Needs the package registry or a pnpm store that already holds vitest, sentiment and vader-sentiment.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
if [ $# -ge 1 ]; then dir="$1"; mkdir -p "$dir"; else dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT; fi
if [ -n "$(ls -A "$dir")" ]; then echo "error: $dir is not empty; give an empty folder (or none for a temporary one)" >&2; exit 2; fi
dir="$(cd "$dir" && pwd)"
heavy='@huggingface/transformers|onnxruntime|sharp'

(cd "$repo" && pnpm --filter @persode/util --filter @persode/core build >/dev/null)
(cd "$repo/packages/util" && pnpm pack --pack-destination "$dir" >/dev/null)
(cd "$repo/packages/core" && pnpm pack --pack-destination "$dir" >/dev/null)

echo "== a user's install of the packed @persode/core (pnpm defaults)"
mkdir "$dir/user"
cat >"$dir/user/package.json" <<JSON
{ "name": "user", "private": true, "type": "module",
  "dependencies": { "@persode/core": "file:../persode-core-0.1.0.tgz" },
  "pnpm": { "overrides": { "@persode/util": "file:../persode-util-0.1.0.tgz" } } }
JSON
(cd "$dir/user" && pnpm install --prefer-offline --ignore-workspace >/dev/null)
if ls "$dir/user/node_modules/.pnpm" | grep -E "$heavy"; then echo "error: installing @persode/core brought in the packages above" >&2; exit 1; fi
(cd "$dir/user" && node --input-type=module -e 'const c = await import("@persode/core"); const e = await c.createEmbedder("hashing"); console.log(`hashing works without the peer: ${(await e.embed("hello")).length} dimensions`);')

echo "== core's test suite in a copy without the optional peer"
mkdir -p "$dir/copy/packages/core" "$dir/copy/packages/benchmarks/test" "$dir/copy/packages/benchmarks/data"
echo '{ "private": true, "type": "module" }' >"$dir/copy/package.json" # vitest.base.ts is an ES module
cp "$repo/vitest.base.ts" "$repo/tsconfig.base.json" "$dir/copy/"
# core's tests read the scenario and the reference's published numbers from the harness's folders
cp -r "$repo/packages/benchmarks/test/fixtures" "$dir/copy/packages/benchmarks/test/"
cp "$repo/packages/benchmarks/data/scenario.json" "$dir/copy/packages/benchmarks/data/"
(cd "$repo/packages/core" && cp -r src test data dist scripts package.json tsconfig.json tsconfig.build.json vitest.config.ts "$dir/copy/packages/core/")
node -e '
  const fs = require("fs"); const f = process.argv[1]; const p = JSON.parse(fs.readFileSync(f, "utf8"));
  p.dependencies["@persode/util"] = "file:../../../persode-util-0.1.0.tgz";
  delete p.devDependencies["@huggingface/transformers"];
  p.devDependencies.vitest = JSON.parse(fs.readFileSync(process.argv[2], "utf8")).devDependencies.vitest;
  fs.writeFileSync(f, JSON.stringify(p, null, 2));' "$dir/copy/packages/core/package.json" "$repo/package.json"
# auto-install-peers=false: pnpm installs a root project's own peers; a user's install (above) never gets an optional one
(cd "$dir/copy/packages/core" && pnpm install --prefer-offline --ignore-workspace --config.auto-install-peers=false >/dev/null)
if ls "$dir/copy/packages/core/node_modules/.pnpm" | grep -E "$heavy"; then echo "error: the copy has the packages above installed" >&2; exit 1; fi
ln -s packages/core/node_modules "$dir/copy/node_modules" # vitest.base.ts imports vitest from the copy's root
(cd "$dir/copy/packages/core" && ./node_modules/.bin/vitest run --reporter=default)
