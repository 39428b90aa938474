#!/usr/bin/env bash
# `make test-deb` (run by `make test`): builds the .deb, installs it with `apt-get install ./tuner_….deb`
# as a user would, runs /usr/bin/tuner (--version, a file and standard input analysed), and removes the
# package. Whatever fails midway, the package is removed again (trap). It needs root and a machine with
# no tuner package installed already (it would replace and then remove that one): elsewhere it says so
# and does not run — except in CI (CI=true), where not running is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

not_run() {
    echo "test-deb: NOT RUN: $1" >&2
    case "${CI:-}" in true|1|yes) exit 1 ;; *) exit 0 ;; esac
}
[ "$(id -u)" = 0 ] || not_run "installing a package needs root; run 'sudo make test-deb' (CI runs as root)"
if dpkg-query -W -f='${Status}' tuner 2>/dev/null | grep -q 'ok installed'; then
    not_run "a tuner package is installed already; remove it first ('apt-get remove tuner')"
fi

make --no-print-directory deb
version=$(.build/static/release/tuner --version | awk 'NR == 1 { print $2 }')
deb=./tuner_${version}_$(dpkg --print-architecture).deb
work=$(mktemp -d)
cleanup() {
    status=$?
    if dpkg-query -W -f='${Status}' tuner 2>/dev/null | grep -q 'ok installed'; then
        apt-get remove -y -qq -o DPkg::Lock::Timeout=300 tuner >/dev/null || dpkg --purge tuner || true
    fi
    rm -rf "$work"
    [ $status = 0 ] && echo "test-deb: passed" || echo "test-deb: FAILED" >&2
}
trap cleanup EXIT
fail() { echo "test-deb: $1" >&2; exit 1; }

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 "$deb" >/dev/null

[ -x /usr/bin/tuner ] || fail "/usr/bin/tuner is not installed"
for f in /usr/share/man/man1/tuner.1.gz /usr/share/bash-completion/completions/tuner \
         /usr/share/zsh/vendor-completions/_tuner /usr/share/fish/vendor_completions.d/tuner.fish; do
    [ -f "$f" ] || fail "$f is not installed"
done
# The Swift runtime is inside the binary: nothing of the toolchain is linked.
if ldd /usr/bin/tuner | grep -i swift; then fail "/usr/bin/tuner links the Swift runtime dynamically"; fi

out=$(env -i PATH=/usr/bin:/bin /usr/bin/tuner --version)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
echo "$out" | grep -Eq "^tuner $version \(commit $commit(-dirty)?\)$" || fail "unexpected --version: $out (HEAD is $commit)"

# Two seconds of a 110 Hz sine (A2) as a 16-bit WAV, written with perl (always on Debian).
perl -e 'my ($r, $n) = (8000, 16000);
    print "RIFF", pack("V", 36 + 2 * $n), "WAVE", "fmt ", pack("VvvVVvv", 16, 1, 1, $r, 2 * $r, 2, 16),
        "data", pack("V", 2 * $n);
    print pack("s<", int(12000 * sin(2 * 3.14159265358979 * 110 * $_ / $r))) for 0 .. $n - 1;' > "$work/a2.wav"
env -i PATH=/usr/bin:/bin HOME="$work" /usr/bin/tuner --file "$work/a2.wav" --expect A2 \
    || fail "/usr/bin/tuner --file a2.wav --expect A2 failed"
env -i PATH=/usr/bin:/bin HOME="$work" /usr/bin/tuner --file - --expect A2 < "$work/a2.wav" \
    || fail "/usr/bin/tuner --file - --expect A2 failed"
man -l /usr/share/man/man1/tuner.1.gz 2>/dev/null | grep -q -- '--generate-manual' \
    || fail "the installed man page does not render its options"

apt-get remove -y -qq -o DPkg::Lock::Timeout=300 tuner >/dev/null
[ ! -e /usr/bin/tuner ] || fail "/usr/bin/tuner is still there after apt-get remove"
