#!/usr/bin/env bash
# Usage: fetch-yaml-cpp.sh DIR -- puts yaml-cpp's source (Debian 12's source package, the version of libyaml-cpp-dev) in DIR, once.
# The lab's WebAssembly engine compiles it with emscripten; Debian ships yaml-cpp only as an x86 library.
# apt-get runs with its own source list and state under DIR's parent, so the system's apt is untouched.
set -euo pipefail
dir=$1
[ -f "$dir/src/parse.cpp" ] && exit 0
work=$(dirname "$dir")/yaml-cpp-apt
rm -rf "$work" && mkdir -p "$work/lists/partial" "$work/archives/partial"
echo "deb-src http://deb.debian.org/debian bookworm main" > "$work/sources.list"
apt=(apt-get -q -o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$work/lists" -o "Dir::Cache::Archives=$work/archives" -o APT::Sandbox::User=root)
"${apt[@]}" update >/dev/null
(cd "$work" && "${apt[@]}" source --download-only yaml-cpp >/dev/null)
mkdir -p "$dir.tmp"
tar -xf "$work"/yaml-cpp_*.orig.tar.* -C "$dir.tmp" --strip-components=1
rm -rf "$dir" && mv "$dir.tmp" "$dir" && rm -rf "$work"
echo "fetch-yaml-cpp: yaml-cpp source in $dir"
