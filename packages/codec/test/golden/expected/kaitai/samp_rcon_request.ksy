meta:
  id: samp_rcon_request
  title: SA:MP rcon command request
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "One UDP payload: layout samp.rcon.request of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
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
    valid: opcode::rcon_command
    doc: Query type
  - id: len_password
    type: u2
    doc: Length of password in bytes
  - id: password
    size: len_password
    doc: RCON password (cleartext on the wire); text in the server's charset, as raw bytes
  - id: len_command
    type: u2
    doc: Length of command in bytes
  - id: command
    size: len_command
    doc: Console command; text in the server's charset, as raw bytes
enums:
  opcode:
    0x63: client_list
    0x64: detailed_player_list
    0x69: information
    0x6f: open_mp_extra_information
    0x70: ping
    0x72: rules
    0x78: rcon_command
