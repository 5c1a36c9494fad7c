#!/usr/bin/env bash
# Makes the captures of test/fixtures/charset and test/fixtures/omp (run as root; needs tcpdump and node): the emulator
# serves the servers of the directory's servers.json on loopback and `gamequery query samp` asks each once (i, r, o,
# then d or c; o again in the 15-byte form where the version rule says v1.1 or older).
#   charset/charset-lo.pcap  SA-MP 0.3.7 in windows-1251 (47781), in windows-1252 (47782), open.mp in UTF-8 (47783)
#   omp/omp-forms-lo.pcap    open.mp answering o as v1.1.0.2612 (47791), v1.2.0.2670 (47792), v1.4.0.2779 (47793)
#   mcquery/full-stat-lo.pcap  Minecraft (vanilla query) with three players (47801), with plugins and none (47802),
#                            each asked by `gamequery query minecraft` for the full stat (handshake, then stat)
# With arguments (charset, omp, mcquery), makes only those. The files are committed: tests never run this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
fixtures=$here/../test/fixtures
only=("$@")
cli=(node --conditions=@gamequery/source --import tsx "$root/packages/cli/src/main.ts")

capture() {
  if ((${#only[@]} > 0)) && [[ " ${only[*]} " != *" $(basename "$1") "* ]]; then return; fi
  local dir=$1 file=$2 first=$3 protocol=${4:-samp} count=${5:-3}
  local last=$((first + count - 1)) targets=() port
  for ((port = first; port <= last; port++)); do targets+=("127.0.0.1:$port"); done
  tcpdump -i lo -U -w "$dir/$file" "udp and portrange $first-$last" 2>/dev/null &
  local dump=$!
  "${cli[@]}" serve "$dir/servers.json" >/dev/null &
  local serve=$!
  sleep 2
  "${cli[@]}" query "$protocol" "${targets[@]}" --timeout 500 --retries 0 >/dev/null || true
  sleep 1
  kill -INT "$serve" "$dump"
  wait "$serve" "$dump" || true
}

capture "$fixtures/charset" charset-lo.pcap 47781
capture "$fixtures/omp" omp-forms-lo.pcap 47791
capture "$fixtures/mcquery" full-stat-lo.pcap 47801 minecraft 2
