meta:
  id: mcquery_basic_response
  title: Minecraft query basic stat response
  license: MIT
  ks-version: "0.11"
  endian: be
  encoding: ASCII
doc: "One UDP payload: layout mcquery.basic.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as latin1 unless told otherwise."
seq:
  - id: type
    type: u1
    enum: type
    valid: type::stat
    doc: Packet type
  - id: session_id
    type: u4
    doc: Client-chosen id, echoed by the server
  - id: motd
    terminator: 0
    doc: Message of the day; text in the server's charset, as raw bytes
  - id: gametype
    terminator: 0
    doc: "SMP (PocketMine: SMP/CMP); text in the server's charset, as raw bytes"
  - id: map
    terminator: 0
    doc: World name; text in the server's charset, as raw bytes
  - id: num_players_str
    type: strz
    valid:
      expr: _.to_i.to_s == _ and _.to_i >= 0 and _.to_i <= 4294967295
    doc: Players online, decimal text
  - id: max_players_str
    type: strz
    valid:
      expr: _.to_i.to_s == _ and _.to_i >= 0 and _.to_i <= 4294967295
    doc: Player slots, decimal text
  - id: host_port
    type: u2le
    doc: Game port, u16 LE
  - id: host_ip
    terminator: 0
    doc: server-ip, or the machine address; text in the server's charset, as raw bytes
instances:
  num_players:
    value: num_players_str.to_i
    doc: Players as a number (u32)
  max_players:
    value: max_players_str.to_i
    doc: Max players as a number (u32)
enums:
  type:
    0x00: stat
    0x09: handshake
