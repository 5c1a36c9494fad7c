meta:
  id: samp_rules_response
  title: SA:MP rules response
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "One UDP payload: layout samp.rules.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
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
    valid: opcode::rules
    doc: Query type
  - id: num_rules
    type: u2
    doc: Number of rule entries
  - id: rules
    type: rule
    if: num_rules > 0
    repeat: until
    repeat-until: rules.size >= num_rules or _io.eof
    doc: Rule; may hold fewer than num_rules entries when the message ends between two
types:
  rule:
    doc: Rule
    seq:
      - id: len_name
        type: u1
        doc: Length of name in bytes
      - id: name
        size: len_name
        doc: Rule name; text in the server's charset, as raw bytes
      - id: len_value
        type: u1
        doc: Length of value in bytes
      - id: value
        size: len_value
        doc: Rule value; text in the server's charset, as raw bytes
enums:
  opcode:
    0x63: client_list
    0x64: detailed_player_list
    0x69: information
    0x6f: open_mp_extra_information
    0x70: ping
    0x72: rules
    0x78: rcon_command
