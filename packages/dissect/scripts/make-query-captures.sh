#!/usr/bin/env bash
# Makes the captures of test/fixtures/charset and test/fixtures/omp (run as root; needs tcpdump and node): the emulator
# serves the servers of the directory's servers.json on loopback and `gamequery query samp` asks each once (i, r, o,
# then d or c; o again in the 15-byte form where the version rule says v1.1 or older).
#   charset/charset-lo.pcap  SA-MP 0.3.7 in windows-1251 (47781), in windows-1252 (47782), open.mp in UTF-8 (47783)
#   omp/omp-forms-lo.pcap    open.mp answering o as v1.1.0.2612 (47791), v1.2.0.2670 (47792), v1.4.0.2779 (47793)
# The files are committed: tests never run this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
fixtures=$here/../test/fixtures
cli=(node --conditions=@gamequery/source --import tsx "$root/packages/cli/src/main.ts")

capture() {
  local dir=$1 file=$2 first=$3
  tcpdump -i lo -U -w "$dir/$file" "udp and portrange $first-$((first + 2))" 2>/dev/null &
  local dump=$!
  "${cli[@]}" serve "$dir/servers.json" >/dev/null &
  local serve=$!
  sleep 2
  "${cli[@]}" query samp "127.0.0.1:$first" "127.0.0.1:$((first + 1))" "127.0.0.1:$((first + 2))" --timeout 500 --retries 0 >/dev/null || true
  sleep 1
  kill -INT "$serve" "$dump"
  wait "$serve" "$dump" || true
}

capture "$fixtures/charset" charset-lo.pcap 47781
capture "$fixtures/omp" omp-forms-lo.pcap 47791
