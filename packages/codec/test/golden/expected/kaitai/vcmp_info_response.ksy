meta:
  id: vcmp_info_response
  title: VC:MP server information response
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "One UDP payload: layout vcmp.info.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
seq:
  - id: magic
    contents: MP04
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
    valid: opcode::information
    doc: Query type
  - id: version
    size: 12
    terminator: 0
    doc: Server build, NUL-padded to 12 bytes; text in the server's charset, as raw bytes
  - id: password
    type: u1
    doc: Whether joining needs a password (0 = no, anything else = yes)
  - id: players
    type: u2
    doc: Players
  - id: max_players
    type: u2
    doc: Max players
  - id: len_hostname
    type: u4
    doc: Length of hostname in bytes
  - id: hostname
    size: len_hostname
    doc: Server name; text in the server's charset, as raw bytes
  - id: len_gamemode
    type: u4
    doc: Length of gamemode in bytes
  - id: gamemode
    size: len_gamemode
    doc: Gamemode; text in the server's charset, as raw bytes
  - id: len_map
    type: u4
    doc: Length of map in bytes
  - id: map
    size: len_map
    doc: Map name (not language); text in the server's charset, as raw bytes
enums:
  opcode:
    0x63: client_list
    0x69: information
    0x70: ping
