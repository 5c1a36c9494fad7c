meta:
  id: samp_info_response
  title: SA:MP server information response
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "One UDP payload: layout samp.info.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
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
    valid: opcode::information
    doc: Query type
  - id: password
    type: u1
    doc: Whether joining needs a password (0 = no, anything else = yes)
  - id: players
    type: u2
    doc: Players online, NPCs excluded
  - id: max_players
    type: u2
    doc: Player slots minus NPCs
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
    doc: Game mode text; text in the server's charset, as raw bytes
  - id: len_language
    type: u4
    doc: Length of language in bytes
  - id: language
    size: len_language
    doc: Language (map name before 0.3.7); text in the server's charset, as raw bytes
enums:
  opcode:
    0x63: client_list
    0x64: detailed_player_list
    0x69: information
    0x6f: open_mp_extra_information
    0x70: ping
    0x72: rules
    0x78: rcon_command
