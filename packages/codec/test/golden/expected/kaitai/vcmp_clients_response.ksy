meta:
  id: vcmp_clients_response
  title: VC:MP client list response
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "One UDP payload: layout vcmp.clients.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
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
    valid: opcode::client_list
    doc: Query type
  - id: num_clients
    type: u2
    doc: Number of client entries
  - id: clients
    type: client
    if: num_clients > 0
    repeat: until
    repeat-until: clients.size >= num_clients or _io.eof
    doc: Client; may hold fewer than num_clients entries when the message ends between two
types:
  client:
    doc: Client
    seq:
      - id: len_name
        type: u1
        doc: Length of name in bytes
      - id: name
        size: len_name
        doc: Nickname; text in the server's charset, as raw bytes
enums:
  opcode:
    0x63: client_list
    0x69: information
    0x70: ping
