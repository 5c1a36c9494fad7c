meta:
  id: mcquery_handshake_request
  title: Minecraft query handshake request
  license: MIT
  ks-version: "0.11"
  endian: be
doc: "One UDP payload: layout mcquery.handshake.request of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as latin1 unless told otherwise."
seq:
  - id: magic
    contents: [0xfe, 0xfd]
    doc: Request signature FE FD
  - id: type
    type: u1
    enum: type
    valid: type::handshake
    doc: Packet type
  - id: session_id
    type: u4
    doc: Client-chosen id, echoed by the server
enums:
  type:
    0x00: stat
    0x09: handshake
