#!/usr/bin/env bash
# Install pdflatex and booktabs (Debian's texlive-latex-base and
# texlive-latex-recommended) and Latin Modern, Type 1 fonts for T1 (lmodern), when
# they are missing. Safe to run again: with
# the packages present it only checks. Elsewhere, install a TeX distribution
# with booktabs and tabularx yourself (macOS: MacTeX or BasicTeX).
set -euo pipefail
packages=(texlive-latex-base texlive-latex-recommended lmodern)
command -v dpkg-query >/dev/null || exit 0
missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
((${#missing[@]})) || exit 0
sudo=()
if ((EUID != 0)); then sudo=(sudo); fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$repo/build/logs"
log="$repo/build/logs/apt-latex.log"
echo "==> installing Debian packages: ${missing[*]} (apt's output: ${log#"$repo"/})"
start=$(date +%s)
if ! { "${sudo[@]}" flock /tmp/apt.lock apt-get update &&
	"${sudo[@]}" flock /tmp/apt.lock env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	echo "setup-latex: apt-get failed (above; full log in $log)" >&2
	exit 1
fi
echo "==> installed ${missing[*]} ($(grep -c '^Setting up ' "$log") packages in all) in $(($(date +%s) - start))s (log: ${log#"$repo"/})"
