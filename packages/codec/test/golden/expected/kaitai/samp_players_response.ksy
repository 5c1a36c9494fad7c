meta:
  id: samp_players_response
  title: SA:MP detailed player list response
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "One UDP payload: layout samp.players.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
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
    valid: opcode::detailed_player_list
    doc: Query type
  - id: num_players
    type: u2
    doc: Number of player entries
  - id: players
    type: player
    if: num_players > 0
    repeat: until
    repeat-until: players.size >= num_players or _io.eof
    doc: Player; may hold fewer than num_players entries when the message ends between two
types:
  player:
    doc: Player
    seq:
      - id: id
        type: u1
        doc: Player id, low 8 bits only
      - id: len_name
        type: u1
        doc: Length of name in bytes
      - id: name
        size: len_name
        doc: Nickname; text in the server's charset, as raw bytes
      - id: score
        type: s4
        doc: Score (signed)
      - id: ping
        type: u4
        doc: Ping in milliseconds
enums:
  opcode:
    0x63: client_list
    0x64: detailed_player_list
    0x69: information
    0x6f: open_mp_extra_information
    0x70: ping
    0x72: rules
    0x78: rcon_command
