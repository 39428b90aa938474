#!/usr/bin/env bash
# `make deb`: tuner_VERSION_ARCH.deb (in the repository's top folder) from a release binary given as $1.
# Stages `make install` under /usr, writes the control file (Depends from dpkg-shlibdeps), builds the
# package with dpkg-deb and checks it with lintian when lintian is installed (`make deb-lint` installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
version=$("$binary" --version | awk 'NR == 1 { print $2 }')
arch=$(dpkg --print-architecture)
name=tuner_${version}_${arch}
work=.build/deb
stage=$work/$name
rm -rf "$work"
mkdir -p "$stage/DEBIAN" "$stage/usr/share/doc/tuner"
make --no-print-directory install DESTDIR="$PWD/$stage" PREFIX=/usr TUNER_BIN="$binary" >/dev/null
# Symbols are for debugging the build, not for the package (lintian: unstripped-binary-or-object).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/tuner"

cat > "$stage/usr/share/doc/tuner/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: tuner
Comment: Built by 'make deb' from the tuner source tree, commit $("$binary" --version | sed -n 's/.*(commit \(.*\))/\1/p').

Files: *
Copyright: the tuner authors
License: public-domain
 This package carries no separate licence statement; see the source repository.
COPYRIGHT
{
    echo "tuner ($version) unstable; urgency=low"
    echo
    echo "  * Built by 'make deb' from commit $("$binary" --version | sed -n 's/.*(commit \(.*\))/\1/p')."
    echo
    echo " -- Tuner maintainers <tuner@example.org>  $(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
} | gzip -9n > "$stage/usr/share/doc/tuner/changelog.gz"
chmod 644 "$stage/usr/share/doc/tuner/"*

# The shared libraries the binary is linked to, as package names and versions (libfftw3-single3,
# libasound2, libncursesw6, libsndfile1, libc6, libstdc++6, …): dpkg-shlibdeps wants a debian/control.
shlibs=$(mktemp -d)
trap 'rm -rf "$shlibs"' EXIT
mkdir "$shlibs/debian"
printf 'Source: tuner\n\nPackage: tuner\nArchitecture: any\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O "$OLDPWD/$stage/usr/bin/tuner" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no libraries for $binary" >&2; exit 1; }

(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"

cat > "$stage/DEBIAN/control" <<CONTROL
Package: tuner
Version: $version
Architecture: $arch
Maintainer: Tuner maintainers <tuner@example.org>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Recommends: libasound2-plugins, espeak-ng
Section: sound
Priority: optional
Description: real-time instrument tuner for the terminal
 tuner listens to a capture device (ALSA, or PulseAudio/PipeWire through the
 ALSA plugins) or reads an audio file or a pipe, and shows the note, its
 frequency and how many cents it is off, on a full-screen needle and strobe or
 as text and JSON lines. It knows guitar, bass, ukulele, violin and other
 tunings, can announce settled notes for screen readers, and speaks them with
 espeak-ng.
CONTROL
dpkg-deb --root-owner-group -Zxz --build "$stage" "$name.deb" >/dev/null
echo "Built $name.deb"

# Lintian: no errors or warnings. The informational tags left, and why:
#  - hardening-no-fortify-functions: the binary's C and C++ code calls no fortifiable libc function
#    with a size lintian can check (the engine is arithmetic on float buffers); SwiftPM's C flags are
#    not Debian's dpkg-buildflags.
#  - spelling-error-in-binary (ADDRES, Portugese, …): strings in ICU's locale data, linked in with the
#    static Swift Foundation, not the tuner's own text.
if command -v lintian >/dev/null; then
    lintian --fail-on error,warning "$name.deb"
fi
