#!/usr/bin/env bash
# A minimal Debian with systemd, made once per machine for the systemd test
# (test/peers/systemd.test.ts): the operator's machine of docs/self-hosting.md, with no
# Node.js in it. Usage: scripts/debian-rootfs.sh <dir>. Does nothing when <dir> is there.
# Packages come from the mirror this machine's apt already uses.
set -euo pipefail
dir=$1
[ -x "$dir/lib/systemd/systemd" ] && exit 0
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; }
. /etc/os-release
mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | grep -oE '^(URIs: |deb )[^ ]+' | grep -v security | head -1 | awk '{print $NF}' || true)
[ -n "$mirror" ] || { echo "no Debian mirror in this machine's apt sources" >&2; exit 1; }
rm -rf "$dir.part"
mkdir -p "$(dirname "$dir")"
echo "making a Debian $VERSION_CODENAME root with systemd in $dir (once per machine)"
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus "$VERSION_CODENAME" "$dir.part" "$mirror" >"$dir.log" 2>&1 || { tail -20 "$dir.log" >&2; exit 1; }
mv "$dir.part" "$dir"
