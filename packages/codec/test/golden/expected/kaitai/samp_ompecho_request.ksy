meta:
  id: samp_ompecho_request
  title: SA:MP open.mp detection (echo, v1.1 and older) request
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "open.mp from d96fde3 (2022-05-31) through v1.1.0.2612 echoes a 15-byte `o` unchanged; later servers do not answer it One UDP payload: layout samp.ompecho.request of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
seq:
  - id: magic
    contents: SAMP
    doc: Protocol signature
  - id: server_ip
    size: 4
    doc: Server IPv4 address as the client addressed it (echoed, not validated); the 4 octets in dotted order
  - id: server_port
    type: u2
    doc: Server port as the client addressed it (echoed, not validated)
  - id: opcode
    type: u1
    enum: opcode
    valid: opcode::open_mp_extra_information
    doc: Query type
  - id: nonce
    type: u4be
    doc: Four arbitrary bytes, echoed with the header
enums:
  opcode:
    0x63: client_list
    0x64: detailed_player_list
    0x69: information
    0x6f: open_mp_extra_information
    0x70: ping
    0x72: rules
    0x78: rcon_command
