#!/usr/bin/env bash
# install-trace-model.sh — installs the independent reader that tests/export/perfetto feeds
# `evgen export --perfetto`'s output to: @tracerbench/trace-model (a model of Chrome trace events as
# the catapult trace viewer builds it), pinned, from the npm registry into build/npm, with the
# machine's node and npm. Called by scripts/deps.sh test; does nothing when it is there. Without
# node or npm, or when npm fails, it says so and the test skips that reader (its JSON checks run).
set -euo pipefail
cd "$(dirname "$0")/../../.."
dir=build/npm
[[ -f $dir/node_modules/@tracerbench/trace-model/package.json ]] && exit 0
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "evgen: no node and npm: tests/export/perfetto will skip @tracerbench/trace-model"
    exit 0
fi
mkdir -p "$dir"
log=build/npm-install.log
printf 'evgen: installing @tracerbench/trace-model with npm (log: %s) ... ' "$log"
if npm install --prefix "$dir" --no-audit --no-fund --no-save @tracerbench/trace-model@8.0.0 >"$log" 2>&1; then
    echo "done"
else
    echo "failed: tests/export/perfetto will skip it"
fi
