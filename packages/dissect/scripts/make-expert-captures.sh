#!/usr/bin/env bash
# Makes the captures of expert-traffic.mjs in test/fixtures/expert/ (run as root; needs tcpdump and node):
#   expert-lo.pcap     SA:MP replies the dissector warns about, and Minecraft replies without their requests
#                      (the filter keeps only what comes from the Minecraft port: a capture started mid-conversation)
#   rcon-echo-lo.pcap  RCON exchanges whose replies echo the request's password and the one a command sets
#   rcon-escape-lo.pcap  the same with secrets the text shows escaped (a backslash, a control character)
# Loopback only. The files are committed: tests never run this script. (Kept apart from test/fixtures/captures, whose every file the tshark comparisons read.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../test/fixtures/expert}
cd "$out"

capture() {
  local file=$1 filter=$2 mode=$3
  tcpdump -i lo -U -w "$file" "$filter" 2>"$file.log" &
  local pid=$!
  sleep 1.5
  node "$here/expert-traffic.mjs" "$mode"
  sleep 1
  kill -INT "$pid"; wait "$pid" || true
  rm -f "$file.log"
}

capture expert-lo.pcap 'udp and (port 47777 or src port 47778)' warnings
capture rcon-echo-lo.pcap 'udp and port 47777' rcon
capture rcon-escape-lo.pcap 'udp and port 47777' rcon-escaped
