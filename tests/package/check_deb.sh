#!/usr/bin/env bash
# The .deb as a user gets it: `cpack` makes it from BUILD_DIR, its contents and dependencies are
# checked (no RUNPATH, no maintainer scripts, no lintian error when lintian is installed), the
# desktop entry and AppStream metainfo validated; then, as root (CI), it is installed
# with apt-get (dependencies resolved) and the installed programs are run as a user would, away
# from the build tree: strata-cli summary on the bundled sample, strata --help and --version
# without a display, strata --screenshot under Xvfb, the man pages, and strata-cli record finding
# the installed collector. Exit 0 on pass, 1 on a failure, 77 (skipped, said) when not root:
# the package is built and checked but not installed.
#   tests/package/check_deb.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d /tmp/strata-deb-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { # check WHAT COMMAND...: the command's success
    local what=$1; shift
    if "$@" > "$work/out" 2>&1; then pass "$what"; else fail "$what"; sed 's/^/  /' "$work/out" | tail -20; fi
}

(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" > "$work/cpack.log" 2>&1) ||
    { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/pkg/strata_*.deb)
pass "cpack made $(basename "$deb") ($(stat -c %s "$deb") bytes)"
dpkg-deb -c "$deb" | awk '{ print $6 }' > "$work/contents"
for path in ./usr/bin/strata ./usr/bin/strata-cli ./usr/include/strata/sections.cuh \
            ./usr/share/applications/strata.desktop ./usr/share/icons/hicolor/scalable/apps/strata.svg \
            ./usr/share/mime/packages/strata.xml ./usr/share/metainfo/io.github.strata_trace.Strata.metainfo.xml \
            ./usr/share/man/man1/strata.1.gz ./usr/share/man/man1/strata-cli.1.gz ./usr/share/strata/sample_trace.json \
            ./usr/share/doc/strata/copyright ./usr/share/doc/strata/changelog.gz; do
    grep -qx "$path" "$work/contents" && pass "holds $path" || fail "holds $path"
done
if [ -f "$build/kernels/collector/libstrata_collector.so" ]; then
    grep -qx ./usr/lib/strata/libstrata_collector.so "$work/contents" && pass "holds the collector" ||
        fail "holds the collector"
fi
depends=$(dpkg-deb -f "$deb" Depends)
for dep in libqt6widgets6 libqcustomplot2.1-qt6 libsimdjson zlib1g; do
    [[ $depends == *"$dep"* ]] && pass "depends on $dep" || fail "depends on $dep (Depends: $depends)"
done
# What Debian's policy asks (issue 42): no RUNPATH in an installed ELF file but the collector's
# (into the CUDA toolkit for CUPTI, overridden for lintian with its reason), no maintainer
# scripts (CPack's ldconfig calls are not needed for a private library), and lintian (when
# installed) reports no error: every E: line is a failure, warnings are shown.
mkdir "$work/root"
dpkg-deb -x "$deb" "$work/root"
runpaths=$(find "$work/root" -type f -exec sh -c 'head -c4 "$1" | grep -q "^.ELF" && readelf -d "$1" | grep -E "R(UN)?PATH" | sed "s|^|$1: |"' sh {} \;)
others=$(printf '%s\n' "$runpaths" | grep -v '/usr/lib/strata/libstrata_collector.so: ' || true)
[ -z "$others" ] && pass "no RUNPATH in the package's ELF files but the collector's" ||
    fail "RUNPATH in the package: $others"
scripts=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t | grep -E 'postinst|postrm|preinst|prerm' || true)
[ -z "$scripts" ] && pass "no maintainer scripts" || fail "maintainer scripts: $scripts"
if command -v lintian > /dev/null; then
    lintian --tag-display-limit 0 "$deb" > "$work/lintian" 2>&1 || true
    sed 's/^/  lintian: /' "$work/lintian"
    if grep -q '^E: ' "$work/lintian"; then fail "lintian reports errors"; else pass "lintian reports no error"; fi
else
    echo "SKIP: lintian is not installed (apt-get install lintian): the package was not linted"
fi
check "desktop-file-validate strata.desktop" desktop-file-validate "$src/packaging/desktop/strata.desktop"
check "appstreamcli validate the metainfo" appstreamcli validate --no-net \
    "$src/packaging/desktop/strata.metainfo.xml"

if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: not root: the package was built and checked, not installed"
    [ "$failures" -eq 0 ] && exit 77 || exit 1
fi
check "apt-get install ./$(basename "$deb")" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$deb"
cd "$work" # away from the build tree
check "installed strata-cli summary on the bundled sample" \
    bash -c '/usr/bin/strata-cli summary /usr/share/strata/sample_trace.json | grep -q kernels'
check "strata --help without a display" bash -c 'env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM /usr/bin/strata --help | grep -q "^Usage: .*strata \[options\]"'
check "strata --version --verbose without a display" \
    bash -c 'env -u DISPLAY -u QT_QPA_PLATFORM /usr/bin/strata --version --verbose | grep -q "^Qt 6"'
check "strata without a display says so (exit 1)" bash -c 'rc=0; env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM /usr/bin/strata /usr/share/strata/sample_trace.json 2> nodisplay.err || rc=$?; [ $rc -eq 1 ] && grep -q "^strata: no display" nodisplay.err'
check "strata-cli --version" bash -c '/usr/bin/strata-cli --version | grep -qx "strata-cli [0-9.]*"'
check "installed strata --screenshot under Xvfb" \
    bash -c 'env -u QT_QPA_PLATFORM xvfb-run -a -s "-screen 0 1600x1000x24" /usr/bin/strata --screenshot shot.png --size 1200x800 /usr/share/strata/sample_trace.json && [ -s shot.png ]'
if command -v man > /dev/null; then
    check "man -w strata-cli" man -w strata-cli
fi
check "the MIME database knows .strata" bash -c 'grep -q "application/x-strata-trace" /usr/share/mime/globs2'
for type in application/x-strata-trace application/x-kineto-trace+json application/gzip; do
    check "a file manager offers Strata for $type" \
        bash -c "grep -q '^$type=.*strata.desktop' /usr/share/applications/mimeinfo.cache"
done
if command -v xdg-mime > /dev/null; then # what a double-click on a .strata file opens
    printf 'STRATA' > trace.strata
    check "xdg-mime: a .strata file is application/x-strata-trace" \
        bash -c '[ "$(xdg-mime query filetype trace.strata)" = application/x-strata-trace ]'
    check "xdg-mime: its default application is Strata" \
        bash -c '[ "$(xdg-mime query default application/x-strata-trace)" = strata.desktop ]'
fi
if [ -f /usr/lib/strata/libstrata_collector.so ]; then
    check "installed strata-cli record uses the installed collector" bash -c \
        '/usr/bin/strata-cli record -o rec.strata -- /bin/true 2>&1 | grep -q "/usr/lib/strata/libstrata_collector.so"'
    check "the installed collector's libraries resolve" bash -c \
        '! ldd /usr/lib/strata/libstrata_collector.so | grep -q "not found"'
fi
check "no build-tree path in the installed binaries" bash -c \
    "! grep -q '$build' /usr/bin/strata /usr/bin/strata-cli"
[ "$failures" -eq 0 ] && echo "RESULT: PASS" || { echo "RESULT: $failures FAILED"; exit 1; }
