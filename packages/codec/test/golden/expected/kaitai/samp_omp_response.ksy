meta:
  id: samp_omp_response
  title: SA:MP open.mp extra information response
  license: MIT
  ks-version: "0.11"
  endian: le
doc: "open.mp v1.3.1.2744 and later (openmultiplayer/open.mp acc062d, 00909d0): URLs cut to 160 bytes One UDP payload: layout samp.omp.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as windows-1252 unless told otherwise."
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
  - id: len_discord
    type: u4
    doc: Length of discord invite in bytes
  - id: discord
    size: len_discord
    doc: Sent empty when the configured invite is longer than 50 bytes; text in the server's charset, as raw bytes
  - id: len_banner_light
    type: u4
    doc: Length of light banner url in bytes
  - id: banner_light
    size: len_banner_light
    doc: Light banner URL; text in the server's charset, as raw bytes
  - id: len_banner_dark
    type: u4
    doc: Length of dark banner url in bytes
  - id: banner_dark
    size: len_banner_dark
    doc: Dark banner URL; text in the server's charset, as raw bytes
  - id: len_logo
    type: u4
    doc: Length of logo url in bytes
  - id: logo
    size: len_logo
    doc: Logo URL; text in the server's charset, as raw bytes
enums:
  opcode:
    0x63: client_list
    0x64: detailed_player_list
    0x69: information
    0x6f: open_mp_extra_information
    0x70: ping
    0x72: rules
    0x78: rcon_command
