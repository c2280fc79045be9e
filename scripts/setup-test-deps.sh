#!/usr/bin/env bash
# Install what `make test` needs beyond Go, on Debian/Ubuntu: Chromium for the
# browser test of the web app (lib/web), Noto CJK fonts, without which
# Japanese text renders as empty boxes in its screenshots, and Node.js with
# npm for the MCP client test (cmd/linemem/mcp_clients_test.go), whose clients
# — the MCP Inspector CLI and the TypeScript SDK — it then installs from the
# npm registry into build/mcp-clients, exactly as internal/mcpclients/
# package-lock.json pins them (npm ci; again only when the lockfile changed).
# Idempotent: apt runs only when something is missing, `apt-get update` at
# most once, under /tmp/apt.lock so parallel runs do not collide. Elsewhere
# (no apt-get, or not root and no sudo) it says what to install and exits 0:
# the browser test and the MCP client test then skip with a message naming
# this script.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"

# install_mcp_clients runs npm ci in build/mcp-clients when its copy of the
# lockfile differs from internal/mcpclients/package-lock.json.
install_mcp_clients() {
	command -v npm >/dev/null 2>&1 || return 0
	local src="$repo/internal/mcpclients" dst="$repo/build/mcp-clients"
	if [ -d "$dst/node_modules" ] && cmp -s "$src/package-lock.json" "$dst/package-lock.json"; then
		return 0
	fi
	echo "setup-test-deps: installing the MCP clients into build/mcp-clients (npm ci)" >&2
	mkdir -p "$dst"
	cp "$src/package.json" "$src/package-lock.json" "$dst/"
	(cd "$dst" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
}
trap install_mcp_clients EXIT

missing=()
if ! command -v node >/dev/null 2>&1; then
	missing+=(nodejs npm)
elif ! command -v npm >/dev/null 2>&1; then
	missing+=(npm)
fi
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
if ! { command -v fc-list >/dev/null 2>&1 && [ "$(fc-list : family | grep -ci "Noto Sans CJK")" -gt 0 ]; }; then
	missing+=(fonts-noto-cjk)
fi
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "setup-test-deps: install ${missing[*]} with your package manager for the browser and MCP client tests" >&2
	exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo="sudo"
	else
		echo "setup-test-deps: not root: run 'sudo apt-get install -y ${missing[*]}' for the browser and MCP client tests" >&2
		exit 0
	fi
fi
repo="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$repo/build/logs"
log="$repo/build/logs/apt-test-deps.log"
echo "setup-test-deps: installing ${missing[*]} (apt's output: build/logs/apt-test-deps.log)" >&2
start=$(date +%s)
if ! (
	flock 9
	export DEBIAN_FRONTEND=noninteractive
	if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}"; then
		$sudo apt-get update -qq
		$sudo apt-get install -y --no-install-recommends "${missing[@]}"
	fi
) 9>/tmp/apt.lock >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	echo "setup-test-deps: apt-get failed (above; full log in $log)" >&2
	exit 1
fi
echo "setup-test-deps: installed ${missing[*]} ($(grep -c '^Setting up ' "$log") packages in all) in $(($(date +%s) - start))s (log: build/logs/apt-test-deps.log)" >&2
