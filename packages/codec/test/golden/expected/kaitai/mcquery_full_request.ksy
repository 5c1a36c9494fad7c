meta:
  id: mcquery_full_request
  title: Minecraft query full stat request
  license: MIT
  ks-version: "0.11"
  endian: be
doc: "One UDP payload: layout mcquery.full.request of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as latin1 unless told otherwise."
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
  - id: padding
    size: 4
    doc: Four ignored bytes that select full stat
enums:
  type:
    0x00: stat
    0x09: handshake
