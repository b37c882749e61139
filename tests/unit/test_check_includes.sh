#!/usr/bin/env bash
# test_check_includes.sh — scripts/check-includes.sh on scratch trees: it passes a tree that keeps
# its layers, and fails, naming the file and line, on an upward include, an include between two
# families of the same layer, and an include cycle.
set -euo pipefail
check="$(cd "$(dirname "$0")/../.." && pwd)/scripts/check-includes.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/table" <<'TABLE'
# low < left, right < top
layer src/low    1
layer src/left   2
layer src/right  2
layer src/top    3
root  src
TABLE

# A tree that keeps its layers: top over left and right, both over low; a system header and a
# header of no family are not checked.
tree() {
    rm -rf "$tmp/src"
    mkdir -p "$tmp/src/low" "$tmp/src/left" "$tmp/src/right" "$tmp/src/top" "$tmp/src/other"
    printf '#include <stdio.h>\n' >"$tmp/src/low/base.h"
    printf '#include "low/base.h"\n#include "other/free.h"\n' >"$tmp/src/left/a.h"
    printf '#include "low/base.h"\n' >"$tmp/src/right/b.h"
    printf '#include "left/a.h"\n#include "right/b.h"\n#include "top/main.h"\n' >"$tmp/src/top/main.c"
    printf '#include "low/base.h"\n' >"$tmp/src/top/main.h"
    printf '#include "top/main.h"\n' >"$tmp/src/other/free.h"
}

expect() { # expect STATUS PATTERN: the script's exit status and a line of its output
    local status=0 out
    out=$("$check" --root "$tmp" --table "$tmp/table" 2>&1) || status=$?
    if [[ $status -ne $1 ]] || ! grep -q -e "$2" <<<"$out"; then
        printf 'FAIL: expected status %s and /%s/, got status %s:\n%s\n' "$1" "$2" "$status" "$out"
        exit 1
    fi
    echo "ok: $2"
}

tree
expect 0 "no cycle, no upward include"

tree
printf '#include "top/main.h"\n' >>"$tmp/src/low/base.h"
expect 1 'src/low/base.h:2: error: includes "top/main.h" (src/top, layer 3) from src/low (layer 1)'

tree
printf '#include "right/b.h"\n' >>"$tmp/src/left/a.h"
expect 1 'src/left/a.h:3: error: includes "right/b.h" (src/right, layer 2) from src/left (layer 2)'

tree
printf '#include "top/main.c"\n' >>"$tmp/src/top/main.h"
expect 1 'error: include cycle: src/top/main.c -> src/top/main.h -> src/top/main.c'

tree
printf '#include "base.h"\n' >>"$tmp/src/low/base.h" # found beside the file
expect 1 'src/low/base.h:2: error: include cycle: src/low/base.h -> src/low/base.h'
