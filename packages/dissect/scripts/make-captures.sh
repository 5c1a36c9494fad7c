#!/usr/bin/env bash
# Re-creates the capture fixtures in test/fixtures/captures/ (run as root; needs tcpdump, dumpcap, editcap,
# tshark, iproute2 and node). Only loopback and a veth pair between two network namespaces created here are
# used; no datagram leaves the machine. The fixtures are committed: tests never run this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../test/fixtures/captures}
traffic="node $here/udp-traffic.mjs"
ports='udp and (port 47777 or port 47778)'
mkdir -p "$out"

# capture OUTFILE CAPTURE-COMMAND... -- TRAFFIC-COMMAND...: start the capture, wait until it is
# listening, generate the traffic, let the last packets land, stop the capture with SIGINT.
capture() {
  local file=$1; shift
  local cmd=() traffic_cmd=()
  while [[ $1 != -- ]]; do cmd+=("$1"); shift; done; shift
  traffic_cmd=("$@")
  "${cmd[@]}" 2>"$file.log" &
  local pid=$!
  sleep 1.5
  "${traffic_cmd[@]}"
  sleep 1
  kill -INT "$pid"; wait "$pid" || true
  rm -f "$file.log"
}

cd "$out"
capture lo-us.pcap tcpdump -i lo -U -w lo-us.pcap "$ports" -- $traffic loopback
capture lo-ns.pcap tcpdump -i lo -U --time-stamp-precision=nano -w lo-ns.pcap "$ports" -- $traffic loopback
capture lo.pcapng dumpcap -q -i lo -f "$ports" -w lo.pcapng -- $traffic loopback
capture lo-any.pcapng dumpcap -q -i lo -i any -f "$ports" -w lo-any.pcapng -- $traffic loopback
capture any-sll.pcap tcpdump -i any -y LINUX_SLL -U -w any-sll.pcap "$ports" -- $traffic loopback
capture any-sll2.pcap tcpdump -i any -y LINUX_SLL2 -U -w any-sll2.pcap "$ports" -- $traffic loopback
capture lo-snap60.pcap tcpdump -i lo -s 60 -U -w lo-snap60.pcap "$ports" -- $traffic loopback
capture dns-lo.pcap tcpdump -i lo -U -w dns-lo.pcap 'udp port 53' -- $traffic dns
capture unknown-lo.pcap tcpdump -i lo -U -w unknown-lo.pcap 'udp and src port 47054' -- $traffic unknown

# Two namespaces joined by a veth pair (MTU 1500): the 3413-byte SA:MP `d' reply is IP-fragmented, over IPv4
# and IPv6.
ns_a=gq-cap-a ns_b=gq-cap-b
cleanup() { ip netns del $ns_a 2>/dev/null || true; ip netns del $ns_b 2>/dev/null || true; }
trap cleanup EXIT
cleanup
ip netns add $ns_a; ip netns add $ns_b
ip link add gqv0 netns $ns_a mtu 1500 type veth peer name gqv1 netns $ns_b mtu 1500
ip -n $ns_a link set lo up; ip -n $ns_b link set lo up
ip -n $ns_a link set gqv0 up; ip -n $ns_b link set gqv1 up
ip -n $ns_a addr add 10.231.0.1/24 dev gqv0; ip -n $ns_b addr add 10.231.0.2/24 dev gqv1
ip -n $ns_a addr add fd00:47::1/64 dev gqv0 nodad; ip -n $ns_b addr add fd00:47::2/64 dev gqv1 nodad
sleep 1
ip netns exec $ns_b $traffic serve 10.231.0.2 8000 &
ip netns exec $ns_b $traffic serve fd00:47::2 8000 &
sleep 0.5
capture veth-frag.pcap ip netns exec $ns_a tcpdump -i gqv0 -U -w veth-frag.pcap 'ip or ip6' -- \
  bash -c "ip netns exec $ns_a $traffic query 10.231.0.2 && ip netns exec $ns_a $traffic query fd00:47::2"
wait

# Derived files: other writers, several sections, cut-off copies.
editcap -F pcapng lo-us.pcap lo-us.editcap.pcapng
editcap -F pcap -C 14 -T rawip veth-frag.pcap veth-frag.rawip.pcap
tshark -r lo-us.pcap -Y ip -w - | editcap -F pcap -C 14 -T rawip4 - lo-v4.rawip4.pcap
tshark -r lo-us.pcap -Y ipv6 -w - | editcap -F pcap -C 14 -T rawip6 - lo-v6.rawip6.pcap
cat lo.pcapng lo-us.editcap.pcapng > two-sections.pcapng
head -c 1000 lo-us.pcap > lo-us.cut.pcap
head -c 1000 lo.pcapng > lo.cut.pcapng

# Expected decodes from tshark, committed so that tests need no tshark.
for f in *.pcap *.pcapng; do
  case $f in *.cut.*) continue;; esac
  tshark -r "$f" -o ip.defragment:TRUE -o ipv6.defragment:TRUE -T fields -E header=y -E separator=/t \
    -e frame.number -e frame.time_epoch -e frame.cap_len -e frame.len -e frame.interface_id \
    -e ip.src -e ip.dst -e ipv6.src -e ipv6.dst -e udp.srcport -e udp.dstport -e udp.length \
    -e ip.fragment -e ipv6.fragment -e frame.protocols > "$f.tshark.tsv"
done
chmod 644 ./*.pcap ./*.pcapng
ls -l "$out"
