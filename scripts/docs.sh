#!/usr/bin/env bash
# DocC archives for every library module, with the toolchain's `docc` and no
# plugin: .build/docs/<Module>.doccarchive. Fails on any DocC warning and on
# any public declaration without a doc comment, and prints both counts per
# module (both must be 0).
#
#   bash scripts/docs.sh              every module
#   bash scripts/docs.sh TermCore     the modules named
#   docc preview .build/docs-build/catalogs/TermCore.docc \
#       --additional-symbol-graph-dir .build/docs-build/symbol-graphs/TermCore-only
#                                     (after a run) browse one at localhost:8080
#
# Symbol graphs come from `swift build` with -emit-symbol-graph, in its own
# scratch path (.build/docs-build) so that the plain build is left as it is.
# `swift package dump-symbol-graph` works offline too, but builds every
# target of the package, benchmarks and test support included.
#
# The catalogs are Sources/<Module>/<Module>.docc. docs/EMBEDDING.md (TermCore)
# and docs/ATTACH.md (TermAttach) are their articles: docs/ is the only source,
# and each run copies the catalog to .build/docs-build/catalogs with the
# article written from the docs/ file (scripts/docc_tool.py turns code spans
# that name a public symbol of the module into symbol links), so the two
# cannot drift. Edit docs/, never the copy.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$self")/.."

all=(VTParser TermCore TermReplay TermRender TermAttach TermPTY)
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=("${all[@]}")
# Articles: a docs/ file and the module whose catalog it joins, under the name
# its <doc:> link has.
articles() {
    case "$1" in
        TermCore) echo "docs/EMBEDDING.md Embedding" ;;
        TermAttach) echo "docs/ATTACH.md Attach" ;;
    esac
}

docc=$(command -v docc || echo /opt/swift/usr/bin/docc)
[ -x "$docc" ] || { echo "docs: no docc on PATH nor at $docc (it comes with the Swift toolchain)" >&2; exit 1; }
scratch=.build/docs-build
graphs=$PWD/$scratch/symbol-graphs
mkdir -p .build/docs "$scratch/catalogs"

for module in "${modules[@]}"; do
    # Building a module writes the graphs of it and of every module it
    # depends on; each module is built alone (one --target per call).
    swift build --scratch-path "$scratch" --target "$module" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
        >"$scratch/build-$module.log" 2>&1 || {
        cat "$scratch/build-$module.log" >&2
        exit 1
    }
    # The compiler writes a module's graph only when it compiles the module:
    # with one missing from an up-to-date build (a deleted directory), the
    # docs build starts again from nothing (about a minute).
    if [ ! -f "$graphs/$module.symbols.json" ]; then
        [ -z "${TERMENGINE_DOCS_REBUILT:-}" ] || { echo "docs: swift build wrote no symbol graph for $module" >&2; exit 1; }
        echo "docs: no symbol graph for $module in an up-to-date build: building $scratch again" >&2
        rm -rf "$scratch"
        TERMENGINE_DOCS_REBUILT=1 exec bash "$self" "$@"
    fi
done

failed=0
for module in "${modules[@]}"; do
    # The module's own graphs only (its extensions of other modules' types
    # are Module@Other.symbols.json): docc documents one module per archive.
    own=$graphs/$module-only
    rm -rf "$own" && mkdir -p "$own"
    cp "$graphs/$module.symbols.json" "$own/"
    cp "$graphs/$module"@*.symbols.json "$own/" 2>/dev/null || true

    catalog=$scratch/catalogs/$module.docc
    rm -rf "$catalog"
    cp -R "Sources/$module/$module.docc" "$catalog"
    read -r source name <<<"$(articles "$module")" || true
    if [ -n "${source:-}" ]; then
        python3 scripts/docc_tool.py article "$source" "$own" "$catalog/$name.md"
    fi
    unset source name

    archive=.build/docs/$module.doccarchive
    rm -rf "$archive"
    log=$scratch/docc-$module.log
    status=0
    "$docc" convert "$catalog" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.termengine.$module" \
        --additional-symbol-graph-dir "$own" \
        --output-path "$archive" >"$log" 2>&1 || status=$?
    warnings=$(grep -cE '^(warning|error):' "$log" || true)
    if [ "$warnings" -ne 0 ] || [ "$status" -ne 0 ]; then
        cat "$log" >&2
        failed=1
    fi
    undocumented=0
    python3 scripts/docc_tool.py coverage "$own" "$module" >"$scratch/coverage-$module.log" || undocumented=$?
    missing=$(grep -c 'undocumented:' "$scratch/coverage-$module.log" || true)
    if [ "$undocumented" -ne 0 ]; then
        cat "$scratch/coverage-$module.log" >&2
        failed=1
    fi
    echo "docs: $module: $warnings warnings, $missing undocumented public declarations -> $archive (docc exit $status)"
done
exit $failed
