#!/usr/bin/env bash
# check-includes.sh — the include graph of the C sources (quoted includes only) against a table of
# layers: reports every include cycle, and every include from a family to a family that is not
# below it (a higher one, or another of the same layer). Exits 1 if it reports anything.
# docs/architecture.md ("Families of gen/").
#
# Usage: scripts/check-includes.sh [--root DIR] [--table FILE]
#   --root DIR    the tree to check (default: the repository this script is in)
#   --table FILE  the table to check it by (default: the one below), lines of
#                   layer DIR RANK   a family: the sources under DIR; RANK, its layer (a number)
#                   root DIR         a directory quoted includes are looked up from
#                 and `#` comments. A source belongs to the family of the longest DIR holding it;
#                 an include is looked up beside the including file, then under each root in
#                 order, and one that names no file of a family (a system or library header) is
#                 not checked. A family may include itself and any family of a lower RANK.
#
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
table=""
while (($#)); do
    case "$1" in
    --root)
        root="$(cd "$2" && pwd)"
        shift 2
        ;;
    --table)
        table="$(cat "$2")"
        shift 2
        ;;
    *)
        echo "usage: scripts/check-includes.sh [--root DIR] [--table FILE]" >&2
        exit 2
        ;;
    esac
done

# The whole repository, bottom up (docs/architecture.md, "Layers"): the manifest language and the
# wire format under everything; the runtime; the reader's public headers, core, formats and tools;
# the compatibility test; the generator's families (gen/*/README.md: model below everything,
# frontend/ and lock/ beside each other, backends/ over both, cli/ on top). Includes are written
# from each library's include/ (or, in gen/, from gen/).
: "${table:=$(
    cat <<'EOF'
layer manifest              0.5
layer wire                  1
layer runtime-side          2
layer reader-side/include   3
layer reader-side/core      4
layer reader-side/evtrace   5
layer reader-side/nettrace  5
layer reader-side/tools     6
layer reader-side/export    6
layer reader-side           7
layer compat                8
layer gen/model             10
layer gen/frontend          11
layer gen/lock              11
layer gen/backends          12
layer gen/cli               13
root  manifest
root  wire/include
root  runtime-side/include
root  reader-side/include
root  reader-side/core
root  reader-side/evtrace
root  reader-side/nettrace
root  reader-side/tools
root  reader-side/export
root  compat/include
root  compat/golden
root  gen
EOF
)}"

cd "$root"
layers=()
roots=()
while read -r kind dir rank _; do
    case "$kind" in
    "" | "#"*) ;;
    layer) layers+=("${dir%/} $rank") ;;
    root) roots+=("${dir%/}") ;;
    *)
        echo "check-includes: bad table line: $kind $dir $rank" >&2
        exit 2
        ;;
    esac
done <<<"$table"
((${#layers[@]})) || { echo "check-includes: the table has no layer" >&2; exit 2; }

# Every source of every family, then its quoted includes resolved to files: "FROM LINE TO" edges.
mapfile -t sources < <(for l in "${layers[@]}"; do
    d=${l% *}
    [[ -d $d ]] && find "$d" -type f \( -name '*.c' -o -name '*.h' \)
done | sort -u)

edges=$(
    for src in "${sources[@]}"; do
        { grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$src" || true; } | while IFS= read -r hit; do
            line=${hit%%:*}
            name=${hit#*\"}
            name=${name%%\"*}
            to=""
            for base in "$(dirname "$src")" "${roots[@]}"; do
                if [[ -f $base/$name ]]; then
                    to=$(realpath -m --relative-to=. "$base/$name")
                    break
                fi
            done
            if [[ -n $to ]]; then
                echo "$src $line $to \"$name\""
            fi
        done
    done
)

layer_list=$(printf '%s\n' "${layers[@]}")
awk -v layers="$layer_list" -v n_sources="${#sources[@]}" '
function family(path,    i, best, len) {
    best = ""
    for (i = 1; i <= n_layers; i++) {
        len = length(dir[i])
        if (substr(path, 1, len + 1) == dir[i] "/" && len > length(best))
            best = dir[i]
    }
    return best
}
# Depth-first search from node u; a back edge to a node on the stack is a cycle.
function visit(u,    k, v, i, cycle) {
    state[u] = 1
    stack[++depth] = u
    for (k = 1; k <= n_out[u]; k++) {
        v = out[u, k]
        if (state[v] == 1) {
            cycle = v
            for (i = depth; i >= 1 && stack[i] != v; i--)
                cycle = stack[i] " -> " cycle
            cycle = v " -> " cycle
            print out_file[u, k] ":" out_line[u, k] ": error: include cycle: " cycle
            errors++
        } else if (!state[v]) {
            visit(v)
        }
    }
    depth--
    state[u] = 2
}
BEGIN {
    n_layers = split(layers, rows, "\n")
    for (i = 1; i <= n_layers; i++) {
        split(rows[i], f, " ")
        dir[i] = f[1]
        rank[f[1]] = f[2] + 0
    }
}
NF >= 4 {
    from = $1; line = $2; to = $3; name = $4
    n_edges++
    ff = family(from); tf = family(to)
    if (tf == "")
        next # outside every family: not checked
    if (tf != ff && rank[tf] >= rank[ff]) {
        print from ":" line ": error: includes " name " (" tf ", layer " rank[tf] ") from " ff \
              " (layer " rank[ff] "): a family includes only its own headers and those of lower layers"
        errors++
    }
    if (!((from, to) in seen)) {
        seen[from, to] = 1
        out[from, ++n_out[from]] = to
        out_file[from, n_out[from]] = from
        out_line[from, n_out[from]] = line
        node[from] = 1; node[to] = 1
    }
}
END {
    # In a stable order, so that a cycle is reported the same way every time.
    n = 0
    for (u in node)
        names[++n] = u
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && names[j - 1] > names[j]; j--) {
            t = names[j]; names[j] = names[j - 1]; names[j - 1] = t
        }
    for (i = 1; i <= n; i++)
        if (!state[names[i]])
            visit(names[i])
    if (errors) {
        print "check-includes: " errors " error(s)"
        exit 1
    }
    printf "check-includes: %d sources, %d includes in %d families: no cycle, no upward include\n", \
           n_sources, n_edges, n_layers
}' <<<"$edges"
