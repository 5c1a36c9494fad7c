#!/usr/bin/env bash
# Makes test/fixtures/charset/charset-lo.pcap (run as root; needs tcpdump and node): the emulator serves the three
# servers of test/fixtures/charset/servers.json on loopback (SA-MP 0.3.7 in windows-1251, SA-MP 0.3.7 in windows-1252,
# open.mp in UTF-8) and `gamequery query samp` asks each once (i, r, o, then d or c). The file is committed: tests never
# run this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$here/../test/fixtures/charset}
cli=(node --conditions=@gamequery/source --import tsx "$root/packages/cli/src/main.ts")

tcpdump -i lo -U -w "$out/charset-lo.pcap" 'udp and portrange 47781-47783' 2>/dev/null &
dump=$!
"${cli[@]}" serve "$out/servers.json" >/dev/null &
serve=$!
sleep 2
"${cli[@]}" query samp 127.0.0.1:47781 127.0.0.1:47782 127.0.0.1:47783 --timeout 500 --retries 0 >/dev/null || true
sleep 1
kill -INT "$serve" "$dump"
wait "$serve" "$dump" || true
