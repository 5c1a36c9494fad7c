meta:
  id: mcquery_full_response
  title: Minecraft query full stat response
  license: MIT
  ks-version: "0.11"
  endian: be
doc: "One UDP payload: layout mcquery.full.response of gamequery, generated from its declaration (do not edit). Text fields are raw bytes; gamequery decodes them as latin1 unless told otherwise."
seq:
  - id: type
    type: u1
    enum: type
    valid: type::stat
    doc: Packet type
  - id: session_id
    type: u4
    doc: Client-chosen id, echoed by the server
  - id: splitnum
    size: 11
    doc: GS3 split header ("splitnum\0" 80 00); not validated
  - id: kv
    type: kv
    repeat: until
    repeat-until: _.key.length == 0
    doc: "Key/value; the last entry is the empty key that ends the list: drop it"
  - id: players_section
    type: players_section
    doc: Player section
types:
  kv:
    doc: Key/value
    seq:
      - id: key
        terminator: 0
        doc: Key; text in the server's charset, as raw bytes
      - id: value
        terminator: 0
        doc: Value; text in the server's charset, as raw bytes
        if: key.length != 0
  players_section:
    doc: Player section
    seq:
      - id: marker
        type: u1
        valid: 1
        doc: Start of the player section (01)
      - id: key
        contents: [player_, 0x00]
        doc: Field name "player_"
      - id: index
        type: u1
        valid: 0
        doc: Index of the first player (00)
      - id: players
        terminator: 0
        repeat: until
        repeat-until: _.length == 0
        doc: "Player name; the last entry is the empty string that ends the list: drop it"
enums:
  type:
    0x00: stat
    0x09: handshake
