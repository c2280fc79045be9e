#!/usr/bin/env bash
# Install pdflatex and booktabs (Debian's texlive-latex-base and
# texlive-latex-recommended) when they are missing. Safe to run again: with
# the packages present it only checks. Elsewhere, install a TeX distribution
# with booktabs and tabularx yourself (macOS: MacTeX or BasicTeX).
set -euo pipefail
packages=(texlive-latex-base texlive-latex-recommended)
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
echo "==> installing Debian packages: ${missing[*]}"
"${sudo[@]}" flock /tmp/apt.lock apt-get update
"${sudo[@]}" flock /tmp/apt.lock env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
