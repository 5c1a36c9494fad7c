meta:
  id: mcquery_handshake_response
  title: Minecraft query handshake response
  license: MIT
  ks-version: "0.11"
  endian: be
  encoding: ASCII
doc: "One UDP payload: layout mcquery.handshake.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as latin1 unless told otherwise."
seq:
  - id: type
    type: u1
    enum: type
    valid: type::handshake
    doc: Packet type
  - id: session_id
    type: u4
    doc: Client-chosen id, echoed by the server
  - id: token_str
    type: strz
    valid:
      expr: _.to_i.to_s == _ and _.to_i >= -2147483648 and _.to_i <= 2147483647
    doc: Challenge token as decimal text (signed 32-bit)
instances:
  token:
    value: token_str.to_i
    doc: Challenge token as a number (i32)
enums:
  type:
    0x00: stat
    0x09: handshake
