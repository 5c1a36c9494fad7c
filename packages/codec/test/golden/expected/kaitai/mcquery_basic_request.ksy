meta:
  id: mcquery_basic_request
  title: Minecraft query basic stat request
  license: MIT
  ks-version: "0.11"
  endian: be
doc: "One UDP payload: layout mcquery.basic.request of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as latin1 unless told otherwise."
seq:
  - id: magic
    contents: [0xfe, 0xfd]
    doc: Request signature FE FD
  - id: type
    type: u1
    enum: type
    valid: type::stat
    doc: Packet type
  - id: session_id
    type: u4
    doc: Client-chosen id, echoed by the server
  - id: token
    type: s4
    doc: Token from the handshake, i32 BE
enums:
  type:
    0x00: stat
    0x09: handshake
