#!/usr/bin/env bash
# Regenerates triage's dump fixtures (../dumps) from real runs of dumpgen.
# Each build happens in a scratch copy, so the dumps name a build machine's
# paths, not this checkout's: triage has to map them back.
# The interval pair takes a little over a minute.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../dumps
mkdir -p "$out"
tmp=${TMPDIR:-/tmp}/sendlint-dumpgen
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT

build=$tmp/ci/src/dumpgen
mkdir -p "$build"
cp -r "$here"/go.mod "$here"/main.go "$here"/hub "$build"/
(cd "$build" && go build -o "$tmp/dumpgen" .)
(cd "$build" && go build -trimpath -o "$tmp/dumpgen-trimpath" .)
(cd "$build" && GOEXPERIMENT=goroutineleakprofile go build -o "$tmp/dumpgen-leak" .)

"$tmp/dumpgen" -mode debug2 >"$out/debug2.txt"
"$tmp/dumpgen" -mode debug1 >"$out/debug1.txt"
"$tmp/dumpgen-trimpath" -mode debug2 >"$out/trimpath.txt"
"$tmp/dumpgen-leak" -mode leak1 >"$out/leak1.txt"
"$tmp/dumpgen-leak" -mode leak2 >"$out/leak2.txt"
"$tmp/dumpgen" -mode quit 2>"$out/sigquit.txt" || true
GOTRACEBACK=all "$tmp/dumpgen" -mode panic 2>"$out/panic.txt" || true
"$tmp/dumpgen" -mode interval -second "$out/interval2.txt" >"$out/interval1.txt"
