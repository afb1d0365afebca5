#!/usr/bin/env bash
# Installs what schedplan needs on a Debian machine that already has Go:
# COIN-OR CLP (the LP solver, through cgo) and pkg-config. Does nothing when
# they are there. Pass --browser to also install Chromium (for the report's
# end-to-end test) and --duckdb to also install Node.js and the npm package
# @duckdb/node-api into $SCHEDPLAN_NODE_MODULES (default
# ~/.cache/schedplan-node/node_modules), the independent reader the Parquet
# outputs' test averages them with (scripts/duckdb-check.mjs).
set -euo pipefail
browser="" duckdb=""
for arg in "$@"; do
	case "$arg" in
	--browser) browser=1 ;;
	--duckdb) duckdb=1 ;;
	*) echo "deps.sh: unknown option $arg" >&2; exit 2 ;;
	esac
done
DUCKDB_NODE_API=@duckdb/node-api@1.5.6-r.1
mods="${SCHEDPLAN_NODE_MODULES:-${HOME:-/root}/.cache/schedplan-node/node_modules}"
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists clp 2>/dev/null || need+=(coinor-libclp-dev)
if [ -n "$browser" ]; then
	command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
if [ -n "$duckdb" ]; then
	command -v node >/dev/null 2>&1 || need+=(nodejs)
	command -v npm >/dev/null 2>&1 || need+=(npm)
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ -n "$duckdb" ] && [ ! -f "$mods/@duckdb/node-api/package.json" ]; then
	echo "installing: $DUCKDB_NODE_API into $mods" >&2
	mkdir -p "$(dirname "$mods")"
	npm install --silent --no-audit --no-fund --prefix "$(dirname "$mods")" "$DUCKDB_NODE_API" >/dev/null
fi
