#!/usr/bin/env bash
# Makes test/export/fixtures/rcon-echo-lo.pcap, the capture the Wireshark plugin's secret tests read:
# the emulator (`gamequery serve`) on loopback port 47787 and `gamequery rcon` against it, whose replies
# echo the request's password (varlist) and the passwords its commands set (rcon_password NEW, password NEW).
# Run as root from anywhere in the checkout (needs tcpdump); loopback only. The file is committed: tests
# never run this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$here/../test/export/fixtures/rcon-echo-lo.pcap}
port=47787
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/state.json" <<EOF
{ "servers": [{
  "flavor": "samp037", "port": $port, "hostname": "rcon capture", "gamemode": "test", "language": "English",
  "password": false, "maxPlayers": 10, "players": [], "rules": {},
  "rcon": { "password": "Sw0rdfish!", "commands": {
    "varlist": ["Console Variables:", "  rcon_password\t= \"Sw0rdfish!\"  (string)", "  hostname\t= \"rcon capture\"  (string)"],
    "rcon_password NEWSECRET9": ["  rcon_password\t= \"NEWSECRET9\"  (string)"],
    "password joinpw77": ["Setting server password to: \"joinpw77\""]
  } }
}] }
EOF

cd "$root"
gq() { node --conditions=@gamequery/source --import tsx packages/cli/src/main.ts "$@"; }
# Started directly (not through gq), so that $! is the server itself.
node --conditions=@gamequery/source --import tsx packages/cli/src/main.ts serve "$tmp/state.json" &
serve=$!
tcpdump -i lo -U -w "$out" "udp and port $port" 2>"$tmp/tcpdump.log" &
dump=$!
sleep 3
printf 'Sw0rdfish!\n' >"$tmp/password"
for command in varlist 'rcon_password NEWSECRET9' 'password joinpw77'; do
  # shellcheck disable=SC2086 # the command's words are separate arguments
  gq rcon "127.0.0.1:$port" $command --password-file "$tmp/password" --quiet 300 >/dev/null
done
sleep 1
kill -INT "$dump"; wait "$dump" || true
kill -TERM "$serve"; wait "$serve" || true
