-- The generic part of the generated Wireshark plugin: one interpreter that walks the
-- layout tables plugin.ts emits from the declarations (`SPEC`), the same way
-- grammar/annotate.ts walks them in TypeScript, plus the recognition rules of packet.ts
-- and DNS-style request/response tracking. Nothing in here names a field.
--
-- Written for the Lua 5.2 that Wireshark 3.x/4.0 embed and kept valid on 5.3/5.4:
-- no `bit32`, no `goto`, no `unpack`, integers formatted with `%d` (5.3 would print `1.0`),
-- byte classes spelled out instead of locale-dependent `%c`.
-- Every read is preceded by a length check, so a short packet ends in the
-- `<proto>.malformed` expert item (group MALFORMED), never in "Range is out of bounds".
-- What does not stop decoding (a flag byte above 1, a list shorter than its count, bytes
-- after the message) is raised as the declared expert item of its code (SPEC's `experts`,
-- from the codec's tables), with the words our decoder writes.
--
-- This header (down to the first blank line) is the file's own: the plugin gets what follows.
-- After an edit, `pnpm --filter @gamequery/codec run lua-runtime` regenerates runtime.lua.ts,
-- the module the codec imports (the codec reads no files at run time).

local f_frame_time = Field.new("frame.time")
local udp_port_table = DissectorTable.get("udp.port")

-- Tracking state, rebuilt on every new capture (Proto.init).
local FRAMES, PENDING, FIRST_SENDER
local function reset_state()
  FRAMES, PENDING, FIRST_SENDER = {}, {}, {}
end
reset_state()

local HF = {} -- ProtoField by abbreviation

---------------------------------------------------------------------------
-- Display text, as grammar/display.ts and errors.ts write it
---------------------------------------------------------------------------

local function int_str(n) return string.format("%d", n) end

-- A number as JavaScript's String() writes it (what the codec's templates show): an integer in
-- decimal, a 64-bit one by its own tostring, else the shortest digits that read back to it, laid
-- out as ECMAScript's Number::toString lays them out (1.5, 0.000001, 1e-7, 1e+21).
local function js_number(v)
  if type(v) ~= "number" then return tostring(v) end
  if v ~= v then return "NaN" end
  if v == math.huge then return "Infinity" end
  if v == -math.huge then return "-Infinity" end
  if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return int_str(v) end
  local s
  for p = 0, 16 do
    s = string.format("%." .. p .. "e", v)
    if tonumber(s) == v then break end
  end
  local sign, d1, rest, e = s:match("^(-?)(%d)%.?(%d*)e([-+]%d+)$")
  local digits, n = (d1 .. rest):gsub("0+$", ""), tonumber(e) + 1
  local k = #digits
  if k <= n and n <= 21 then return sign .. digits .. string.rep("0", n - k) end
  if 0 < n and n <= 21 then return sign .. digits:sub(1, n) .. "." .. digits:sub(n + 1) end
  if -6 < n and n <= 0 then return sign .. "0." .. string.rep("0", -n) .. digits end
  local exp = (n - 1 < 0 and "-" or "+") .. math.abs(n - 1)
  if k == 1 then return sign .. digits .. "e" .. exp end
  return sign .. digits:sub(1, 1) .. "." .. digits:sub(2) .. "e" .. exp
end

local function hex_of(n, size)
  if type(n) == "userdata" then return "0x" .. n:tohex(size * 2) end
  return string.format("0x%0" .. (size * 2) .. "x", n % (2 ^ (size * 8)))
end

local function char_of(n)
  if n >= 0x20 and n < 0x7f then return string.char(n) end
  return "."
end

local function show_int(n, size, base, values)
  local label = values and values[n]
  if base == "char" then
    if label then return char_of(n) .. " (" .. label .. ") (" .. hex_of(n, size) .. ")" end
    return char_of(n) .. " (" .. hex_of(n, size) .. ")"
  elseif base == "hex" then
    if label then return label .. " (" .. hex_of(n, size) .. ")" end
    return hex_of(n, size)
  end
  if label then return label .. " (" .. int_str(n) .. ")" end
  return int_str(n)
end

local ESCAPES = { ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t", ["\\"] = "\\\\", ["\0"] = "\\0" }

-- Control characters escaped (UTF-8 text in, UTF-8 text out), like showText().
local function show_text(s)
  s = s:gsub("[\0-\31\127\\]", function(c) return ESCAPES[c] or string.format("\\x%02x", c:byte()) end)
  s = s:gsub("\194([\128-\159])", function(c) return string.format("\\x%02x", c:byte()) end)
  return s
end

-- Bytes as ISO-8859-1 text, encoded as UTF-8.
local function latin1(s)
  return (s:gsub("[\128-\255]", function(c)
    local b = c:byte()
    return string.char(0xC0 + math.floor(b / 64), 0x80 + b % 64)
  end))
end

local function to_hex(s)
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local JSON_ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }

local function json_quote(s)
  return '"' .. s:gsub('[\0-\31\127"\\]', function(c)
    if JSON_ESCAPES[c] then return JSON_ESCAPES[c] end
    if c:byte() < 32 then return string.format("\\u%04x", c:byte()) end
    return c
  end) .. '"'
end

-- "{name}" placeholders filled from a value table; missing ones become 'missing', and
-- integers named in 'hex' (name = width in bytes) read as hexadecimal, as layout.describe writes them.
local function fill(template, values, missing, hex)
  return (template:gsub("{(%w+)}", function(key)
    local v = values[key]
    if v == nil then return missing or "undefined" end
    if type(v) == "string" then return show_text(v) end
    if hex and hex[key] then return hex_of(v, hex[key]) end
    return js_number(v)
  end))
end

---------------------------------------------------------------------------
-- Secrets (RCON passwords), masked as `gamequery dissect` masks them
---------------------------------------------------------------------------

-- A Lua pattern that stands for the text itself, and the mask as a gsub replacement.
local function literal(s) return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")) end
local MASK_REPLACEMENT = SPEC.mask and SPEC.mask:gsub("%%", "%%%%")

-- 'text' with the secret part a field's 'redact' patterns find masked, and that part
-- (trailing blanks trimmed, as a console reads it); nil where none matches.
local function redaction(text, patterns)
  for _, p in ipairs(patterns) do
    local s, part, e = text:match(p)
    if s then return text:sub(1, s - 1) .. SPEC.mask .. text:sub(e), part:match("^(.-)%s*$") end
  end
  return nil
end

-- The secrets a decoded message holds: each wholly secret string, and what a command sets.
local function secrets_of(fields, values, out)
  for _, f in ipairs(fields) do
    local v = f.name and values[f.name]
    if f.k == "string" and type(v) == "string" then
      local secret = f.secret and v
      if f.redact then secret = select(2, redaction(v, f.redact)) end
      if secret and secret ~= "" then out[#out + 1] = secret end
    elseif f.k == "group" then
      secrets_of(f.fields, values, out)
    elseif f.k == "list" and type(v) == "table" then
      for _, o in ipairs(v) do secrets_of(f.entry.fields, o, out) end
    end
  end
  -- Longest first, so a secret inside another is not masked first.
  table.sort(out, function(a, b) return #a > #b end)
  return out
end

-- 'text' with every occurrence of each secret masked.
local function mask_all(text, secrets)
  if not secrets then return text end
  for _, secret in ipairs(secrets) do text = text:gsub(literal(secret), MASK_REPLACEMENT) end
  return text
end

-- A string field's text as the tree shows it: whole secrets masked, the part a command sets
-- masked, and every secret of the exchange ('m.secrets') masked where it occurs; all of it
-- as is when the protocol's show_secrets preference is on ('m.clear').
local function shown_text(m, f, text)
  if m.clear then return text end
  if f.secret then return SPEC.mask end
  if f.redact then text = redaction(text, f.redact) or text end
  return mask_all(text, m.secrets)
end

-- A copy of 'values' for a summary template (Info column, list entries): each string of
-- 'fields' as the tree shows it, but a password a command sets stays masked even when
-- secrets are shown, as in the dissector's summary.
local function masked_values(fields, values, m)
  local out = {}
  for k, v in pairs(values) do out[k] = v end
  for _, f in ipairs(fields) do
    local v = f.name and values[f.name]
    if f.k == "string" and type(v) == "string" then
      if m.clear then out[f.name] = f.redact and redaction(v, f.redact) or v
      else out[f.name] = shown_text(m, f, v) end
    end
  end
  return out
end

---------------------------------------------------------------------------
-- Errors: a table with the codec's error name, field, offset and message
---------------------------------------------------------------------------

local Stop = {}

local function stop(name, field, offset, message)
  error(setmetatable({ name = name, field = field, offset = offset, message = message }, Stop), 0)
end

-- A warning of a declared kind (by code): where, how many bytes, and the values its summary names.
local function warn(w, code, field, offset, length, values)
  values.field = field
  w.warnings[#w.warnings + 1] = { code = code, offset = offset, length = length, values = values }
end

local function need(w, field, n)
  local available = w.len - w.off
  if n > available then
    stop("TruncatedError", field, w.off, string.format("%s: requested %d bytes, but only %d bytes available at offset %d",
      field, n, available, w.off))
  end
end

---------------------------------------------------------------------------
-- The walker: one branch per field kind of grammar/fields.ts
---------------------------------------------------------------------------

-- Text of n bytes in the chosen charset, as the codec decodes it: single-byte code pages
-- through the codec's own tables (SPEC.decoders, bytes 0x80-0xFF), UTF-8 by Wireshark.
local function decode_text(w, start, n)
  if n == 0 then return "" end
  local high = w.high
  if high then
    return (w.tvb:raw(start, n):gsub("[\128-\255]", function(c) return high[c:byte() - 127] end))
  end
  return w.tvb(start, n):string(ENC_UTF_8)
end

-- A number as its spec says (numbers.ts): the TvbRange reader of its kind (le_uint, int, le_uint64, float …),
-- named once per spec. 64-bit integers come as UInt64/Int64 objects, floats as Lua numbers.
local function read_int(tvb, off, spec)
  local m = spec.reader
  if not m then
    m = (spec.le and "le_" or "") .. (spec.float and "float" or (spec.signed and "int" or "uint") .. (spec.size == 8 and "64" or ""))
    spec.reader = m
  end
  local r = tvb(off, spec.size)
  return r[m](r)
end

local function add(tree, abbrev, range, le, value)
  if not tree then return nil end
  if value ~= nil then return tree:add(HF[abbrev], range, value) end
  if le then return tree:add_le(HF[abbrev], range) end
  return tree:add(HF[abbrev], range)
end

local function decimal(s, range)
  if not (s:match("^%-?0$") or s:match("^%-?[1-9]%d*$")) then return nil end
  if #(s:gsub("^%-", "")) > 10 then return nil end
  local n = tonumber(s)
  if n < range[1] or n > range[2] then return nil end
  return n
end

local NUMERIC = { i32 = { -2147483648, 2147483647, "signed" }, u32 = { 0, 4294967295, "unsigned" } }

local walk_fields

-- A subtree (list entry, group) whose length is known once its fields are walked.
local function subtree(w, tree, abbrev, fields, values)
  local start = w.off
  local item = tree and tree:add(HF[abbrev], w.tvb(start, 0))
  local ok, err = pcall(walk_fields, w, fields, item, values)
  if item then item:set_len(w.off - start) end
  if not ok then error(err, 0) end
  return item
end

local function walk_entry(w, list, tree, items)
  local entry = list.entry
  local o = {}
  if list.flat then
    walk_fields(w, entry.fields, tree, o)
  else
    local item = subtree(w, tree, entry.a, entry.fields, o)
    if item and entry.summary then item:append_text(": " .. fill(entry.summary, w.masking and masked_values(entry.fields, o, w) or o)) end
  end
  items[#items + 1] = o
end

local function walk_string(w, f, tree, values)
  local tvb, start = w.tvb, w.off
  local wire, text_len
  if f.prefix then
    need(w, f.prefix.a, f.prefix.size)
    local n = read_int(tvb, start, f.prefix)
    add(tree, f.prefix.a, tvb(start, f.prefix.size), f.prefix.le)
    start = start + f.prefix.size
    w.off = start
    need(w, f.a, n)
    wire, text_len = n, n
  elseif f.fixed then
    need(w, f.a, f.fixed)
    local nul = f.fixed > 0 and tvb:raw(start, f.fixed):find("\0", 1, true)
    wire, text_len = f.fixed, nul and nul - 1 or f.fixed
  else
    local rest = w.len - start
    local nul = rest > 0 and tvb:raw(start, rest):find("\0", 1, true)
    if not nul then
      stop("TruncatedError", f.a, start, string.format("%s: no NUL terminator in the %d bytes available at offset %d", f.a, rest, start))
    end
    wire, text_len = nul, nul - 1
  end
  local text = decode_text(w, start, text_len)
  local value = text
  if f.numeric then
    local range = NUMERIC[f.numeric]
    value = decimal(text_len > 0 and tvb:raw(start, text_len) or "", range)
    if value == nil then
      stop("InvalidValueError", f.a, start, string.format("%s: %s is not a decimal %s 32-bit integer at offset %d",
        f.a, json_quote(text), range[3], start))
    end
  end
  if tree then
    -- The item's value is the shown text, so masked secrets are masked in -T fields/json and filters too.
    local shown = (f.secret or f.redact or w.secrets) and shown_text(w, f, text) or text
    local item = tree:add(HF[f.a], tvb(start, wire), shown)
    -- Wireshark 4.0 keeps a string value as a C string, cut at its first NUL (4.2 lifted that):
    -- a counted string with a NUL inside gets its whole text in the label, as the codec shows it.
    if shown:find("\0", 1, true) then item:set_text(w.rows[f.a].label .. ": " .. show_text(shown)) end
  end
  values[f.name] = value
  w.off = start + wire
end

local function walk_list(w, f, tree, values)
  local tvb = w.tvb
  local items = {}
  values[f.name] = items
  if f.count then
    local c = f.count
    need(w, c.a, c.size)
    local n = read_int(tvb, w.off, c)
    add(tree, c.a, tvb(w.off, c.size), c.le)
    w.off = w.off + c.size
    for i = 1, n do
      -- A count larger than the entries present ends cleanly at the end of the message, with a warning there.
      if f.tolerate_short and w.off == w.len then
        warn(w, "short-list", c.a, w.off, 0, { declared = n, present = i - 1 })
        break
      end
      walk_entry(w, f, tree, items)
    end
    return
  end
  -- Terminated: the list ends where the entry's first string is empty (one 00 byte).
  while true do
    if w.off < w.len and tvb(w.off, 1):uint() == 0 then
      add(tree, f.terminator.a, tvb(w.off, 1))
      w.off = w.off + 1
      return
    end
    if w.off >= w.len then
      stop("TruncatedError", f.terminator.a, w.off, string.format("%s: requested 1 bytes, but only 0 bytes available at offset %d",
        f.terminator.a, w.off))
    end
    walk_entry(w, f, tree, items)
  end
end

local function walk_field(w, f, tree, values)
  local tvb, start, k = w.tvb, w.off, f.k
  if k == "magic" then
    local n = #f.bytes
    need(w, f.a, n)
    local got = tvb:raw(start, n)
    local shown = f.text and show_text(latin1(got)) or to_hex(got)
    if got ~= f.bytes then
      local expected = f.text and show_text(latin1(f.bytes)) or to_hex(f.bytes)
      stop("BadMagicError", f.a, start, string.format("%s: expected %s, got %s at offset %d", f.a, expected, shown, start))
    end
    add(tree, f.a, tvb(start, n), false, f.text and shown or nil)
    w.off = start + n
  elseif k == "const" or k == "int" then
    need(w, f.a, f.size)
    local n = read_int(tvb, start, f)
    if k == "const" and n ~= f.value then
      local row = w.rows[f.a]
      stop("UnexpectedValueError", f.a, start, string.format("%s: expected %s, got %s at offset %d", f.a,
        show_int(f.value, f.size, row.base, row.values), show_int(n, f.size, row.base, row.values), start))
    end
    add(tree, f.a, tvb(start, f.size), f.le)
    if f.name then values[f.name] = n end
    w.off = start + f.size
  elseif k == "bool" then
    need(w, f.a, 1)
    add(tree, f.a, tvb(start, 1))
    local n = tvb(start, 1):uint()
    if n > 1 then warn(w, "flag-byte", f.a, start, 1, { value = n }) end
    values[f.name] = n ~= 0
    w.off = start + 1
  elseif k == "ipv4" then
    need(w, f.a, 4)
    add(tree, f.a, tvb(start, 4))
    local b = { tvb:raw(start, 4):byte(1, 4) }
    values[f.name] = table.concat(b, ".")
    w.off = start + 4
  elseif k == "bytes" then
    need(w, f.a, f.n)
    add(tree, f.a, tvb(start, f.n))
    values[f.name] = f.n > 0 and tvb:raw(start, f.n) or ""
    w.off = start + f.n
  elseif k == "string" then
    walk_string(w, f, tree, values)
  elseif k == "list" then
    walk_list(w, f, tree, values)
  elseif k == "group" then
    subtree(w, tree, f.a, f.fields, values)
  else
    error("gamequery: unknown field kind " .. tostring(k))
  end
end

walk_fields = function(w, fields, tree, values)
  for i = 1, #fields do walk_field(w, fields[i], tree, values) end
end

-- Walks 'fields' into 'tree' (nil: only decode); returns ok, error, values, end offset and
-- the warnings met (those before an error too, as annotate keeps them).
-- 'secrets': those of the exchange, masked in the tree unless the protocol shows them.
local function interpret(P, fields, tvb, tree, secrets)
  local w = { tvb = tvb, len = tvb:len(), off = 0, high = SPEC.decoders[P.charset_names[P.proto.prefs.charset]], rows = P.rows,
    masking = P.secrets, secrets = secrets, clear = P.secrets and P.proto.prefs.show_secrets, warnings = {} }
  local values = {}
  local ok, err = pcall(walk_fields, w, fields, tree, values)
  if not ok and getmetatable(err) ~= Stop then error(err, 0) end
  return ok, (not ok) and err or nil, values, w.off, w.warnings
end

---------------------------------------------------------------------------
-- Recognition (packet.ts) and request/response tracking (as Wireshark's DNS)
---------------------------------------------------------------------------

-- The frame's time as NSTime: absolute (frame.time) when a tree is being built, and always
-- the time since the reference frame rebuilt from pinfo.rel_ts, which as a double is exact
-- to the nanosecond for captures shorter than 24 days. tshark's first pass (-2) has no tree.
local function frame_time(pinfo)
  local fi = f_frame_time()
  local rel = pinfo.rel_ts
  local secs = math.floor(rel)
  local nsecs = math.floor((rel - secs) * 1e9 + 0.5)
  if nsecs >= 1e9 then secs, nsecs = secs + 1, nsecs - 1e9 end
  return { abs = fi and fi.value or nil, rel = NSTime.new(secs, nsecs) }
end

-- Response time without float arithmetic: NSTime minus NSTime.
local function time_between(request, response)
  if request.abs and response.abs then return response.abs - request.abs end
  return response.rel - request.rel
end

local function endpoint(addr, port) return tostring(addr) .. "/" .. int_str(port) end

local function read_selector(tvb, s)
  return read_int(tvb, s.offset, s)
end

-- The bytes of the fields a reply echoes from its request, or nil when cut short.
local function key_of(pair, direction, tvb)
  local parts = {}
  for _, k in ipairs(pair.key) do
    local off = direction == "request" and k[1] or k[2]
    if off + k[3] > tvb:len() then return nil end
    parts[#parts + 1] = tvb:raw(off, k[3])
  end
  return table.concat(parts)
end

-- The request a reply answers: the oldest unanswered one, else the latest (RCON lines).
local function find_request(list, frame)
  if not list then return nil end
  local latest
  for _, rec in ipairs(list) do
    if rec.frame < frame then
      if not rec.response then return rec end
      latest = rec
    end
  end
  return latest
end

local function hint_matches(h, tvb)
  local len = tvb:len()
  if h.min and (len < h.min or len > h.max) then return false end
  return len >= h.offset + #h.bytes and (#h.bytes == 0 or tvb:raw(h.offset, #h.bytes) == h.bytes)
end

-- The layout that consumes the datagram exactly, else the first that decodes at all (RCON).
local function best_fit(P, list, tvb)
  local fallback
  for _, L in ipairs(list) do
    local ok, _, _, off = interpret(P, L.fields, tvb, nil)
    if ok and off == tvb:len() then return L end
    if ok and not fallback then fallback = L end
  end
  return fallback or list[1]
end

-- Among layouts of one direction and selector: a matching hint, an exact fixed size, else
-- of the unhinted ones of no fixed size the one the lengths add up to (open.mp's o forms),
-- else the first unhinted.
local function pick(P, list, tvb)
  local first
  local open = {}
  for _, L in ipairs(list) do
    if L.hint then
      if hint_matches(L.hint, tvb) then return L end
    elseif L.size == tvb:len() then return L
    else
      if not first then first = L end
      if not L.size then open[#open + 1] = L end
    end
  end
  if #open > 1 then
    for _, L in ipairs(open) do
      local ok, _, _, off = interpret(P, L.fields, tvb, nil)
      if ok and off == tvb:len() then return L end
    end
  end
  return first or list[1]
end

local function is_client(P, pinfo, src, dst)
  local sp, dp = P.port_set[pinfo.src_port], P.port_set[pinfo.dst_port]
  if dp and not sp then return true end
  if sp and not dp then return false end
  return FIRST_SENDER[P.name .. "|" .. (src < dst and src .. "|" .. dst or dst .. "|" .. src)] == src
end

local function recognize(P, tvb, pinfo, mode)
  local len = tvb:len()
  local src, dst = endpoint(pinfo.src, pinfo.src_port), endpoint(pinfo.dst, pinfo.dst_port)
  -- 1. Candidates: the layouts whose leading magic is there, or magic-less replies to a tracked request.
  local cands = {}
  -- A four-byte magic (SAMP, VCMP, MP04) is signature enough to claim an unknown opcode; fe fd is not.
  local strong = false
  for _, m in ipairs(P.magics) do
    if len >= #m and tvb:raw(0, #m) == m then
      strong = #m >= 4
      for _, L in ipairs(P.layouts) do if L.magic == m then cands[#cands + 1] = L end end
      break
    end
  end
  if #cands == 0 then
    for _, L in ipairs(P.layouts) do
      if not L.magic and L.direction == "response" then
        local key = key_of(P.pairs[L.message], "response", tvb)
        if key and find_request(PENDING[P.name .. "|" .. dst .. ">" .. src .. "|" .. key], pinfo.number) then
          cands[#cands + 1] = L
        end
      end
    end
  end
  if #cands == 0 then
    if mode ~= "port" or not P.proto.prefs.force then return nil end
    for _, L in ipairs(P.layouts) do if L.direction == "request" then cands[#cands + 1] = L end end
  end
  local pair_key = P.name .. "|" .. (src < dst and src .. "|" .. dst or dst .. "|" .. src)
  if FIRST_SENDER[pair_key] == nil then FIRST_SENDER[pair_key] = src end
  -- 2. The selector (opcode, type) picks the message.
  local requests, responses, readable = {}, {}, false
  for _, L in ipairs(cands) do
    local s = L.selector
    if s and s.offset + s.size <= len then
      readable = true
      if read_selector(tvb, s) == s.value then
        if L.direction == "request" then requests[#requests + 1] = L else responses[#responses + 1] = L end
      end
    end
  end
  if #requests + #responses == 0 then
    if mode == "heuristic" and not (strong and readable) then return nil end
    -- Too short to hold the selector: walking the first candidate shows where it ends.
    return { layout = cands[1], unknown = readable and cands[1].selector or nil }
  end
  -- 3. Direction, where the bytes allow both.
  local L
  if #requests > 0 and #responses > 0 then
    local req, resp = pick(P, requests, tvb), pick(P, responses, tvb)
    if P.pairs[req.message].symmetric then
      L = is_client(P, pinfo, src, dst) and req or resp
    elseif req.size then
      L = (len == req.size) and req or resp
    else
      L = best_fit(P, { req, resp }, tvb)
    end
  else
    L = pick(P, #requests > 0 and requests or responses, tvb)
  end
  -- 4. Tracking, first pass only.
  local d = { layout = L }
  -- A request's secrets, for the request and for every reply linked to it (which may echo them).
  if L.secrets and L.direction == "request" then
    local _, _, values = interpret(P, L.fields, tvb, nil)
    d.secrets = secrets_of(L.fields, values, {})
    if #d.secrets == 0 then d.secrets = nil end
  end
  local pair = P.pairs[L.message]
  local key = key_of(pair, L.direction, tvb)
  d.time = frame_time(pinfo)
  if L.direction == "request" then
    if key then
      local k = P.name .. "|" .. src .. ">" .. dst .. "|" .. key
      PENDING[k] = PENDING[k] or {}
      d.request = { frame = pinfo.number, time = d.time, secrets = d.secrets }
      table.insert(PENDING[k], d.request)
    end
  elseif key then
    local rec = find_request(PENDING[P.name .. "|" .. dst .. ">" .. src .. "|" .. key], pinfo.number)
    if rec then
      if not rec.response then rec.response = pinfo.number end
      d.answers = rec
    end
  end
  return d
end

-- The decision for this datagram: made on the first pass, looked up afterwards.
local function decision(P, tvb, pinfo, mode)
  local id = int_str(pinfo.number) .. ":" .. int_str(tvb:offset())
  local d = FRAMES[id]
  if d ~= nil then return d.protocol == P.name and d or nil end
  if pinfo.visited then return nil end
  d = recognize(P, tvb, pinfo, mode)
  if d then
    d.protocol = P.name
    d.time = d.time or frame_time(pinfo)
    FRAMES[id] = d
  end
  return d
end

---------------------------------------------------------------------------
-- Dissection
---------------------------------------------------------------------------

local function dissect(P, tvb, pinfo, tree, d)
  local L = d.layout
  pinfo.cols.protocol = P.short
  local item = tree:add(P.proto, tvb())
  -- A later pass with a tree completes the absolute time the first pass could not read.
  if not d.time.abs then d.time.abs = frame_time(pinfo).abs end
  if d.request and d.request.response then
    item:add(HF[P.name .. ".response_in"], d.request.response):set_generated()
  end
  if d.answers then
    item:add(HF[P.name .. ".response_to"], d.answers.frame):set_generated()
    -- A response time as the dissector gives one: the reply's, or an RCON line's; not a second reply's
    -- to a request answered already (a copy, or extra).
    if d.answers.response == pinfo.number or P.pairs[L.message].lines then
      item:add(HF[P.name .. ".time"], time_between(d.answers.time, d.time)):set_generated()
    end
  end
  local fields = L.fields
  if d.unknown then
    fields = {}
    for _, f in ipairs(L.fields) do
      if f.a == d.unknown.a then break end
      fields[#fields + 1] = f
    end
  end
  local secrets = d.secrets or (d.answers and d.answers.secrets)
  local ok, err, values, stopped, warnings = interpret(P, fields, tvb, item, secrets)
  -- Bytes after a complete message: on the field 'trailing', as layout.ts names it.
  if ok and not d.unknown and stopped < tvb:len() then
    local count = tvb:len() - stopped
    warnings[#warnings + 1] = { code = "trailing-bytes", offset = stopped, length = count,
      values = { field = "trailing", count = count, offset = stopped } }
  end
  if P.secrets then values = masked_values(fields, values, { secrets = secrets, clear = P.proto.prefs.show_secrets }) end
  -- The Info column is the dissector's summary (dissect.ts, payload.ts), word for word.
  local head = P.display .. " " .. L.message .. " " .. L.direction
  local info = L.info and (head .. ": " .. fill(L.info.template, values, "?", L.info.hex)) or head
  if ok and d.unknown then
    local s, n = d.unknown, read_selector(tvb, d.unknown)
    -- The type byte no message has, as a field of its own (so that a filter on it finds the packet).
    item:add(HF[s.a], tvb(s.offset, 1))
    err = { offset = s.offset, message = string.format("%s: unknown opcode 0x%02x at offset %d", s.a, n, s.offset) }
    info = P.display .. ": " .. err.message
  elseif err then
    info = info .. " [Malformed Packet]"
  end
  pinfo.cols.info = info
  for _, wn in ipairs(warnings) do
    local e = P.expert_of[wn.code]
    item:add_tvb_expert_info(e.item, tvb(wn.offset, wn.length), fill(e.summary, wn.values))
  end
  if err then
    item:add_tvb_expert_info(P.expert, tvb(err.offset, tvb:len() - err.offset), err.message)
  end
  return tvb:len()
end

---------------------------------------------------------------------------
-- Registration
---------------------------------------------------------------------------

local BASES = { dec = base.DEC, hex = base.HEX, char = base.HEX, none = base.NONE }

-- The expert tables' group and severity words (as tshark prints them) as Wireshark's constants.
local GROUPS = { Malformed = expert.group.MALFORMED, Sequence = expert.group.SEQUENCE, Protocol = expert.group.PROTOCOL }
local SEVERITIES = { Note = expert.severity.NOTE, Warning = expert.severity.WARN, Error = expert.severity.ERROR }

-- The declared expert items by code.
local EXPERTS = {}
for _, e in ipairs(SPEC.experts) do EXPERTS[e.code] = e end

local function char_values(values)
  local t = {}
  for n = 0, 255 do t[n] = char_of(n) end
  for n, label in pairs(values or {}) do t[n] = char_of(n) .. " (" .. label .. ")" end
  return t
end

local function protofield(r)
  local abbrev, label, ftype, b, values, doc = r[1], r[2], r[3], r[4], r[5], r[6]
  if b == "char" then values = char_values(values) end
  -- A number (FT_UINT8 … FT_INT64, FT_FLOAT, FT_DOUBLE; numbers.ts): Wireshark's type of that name.
  if ftype:match("^FT_U?INT%d+$") or ftype == "FT_FLOAT" or ftype == "FT_DOUBLE" then
    return ProtoField.new(label, abbrev, ftypes[ftype:sub(4)], values, BASES[b], nil, doc)
  elseif ftype == "FT_BOOLEAN" then return ProtoField.bool(abbrev, label, base.NONE, { "Yes", "No" }, nil, doc)
  elseif ftype == "FT_IPv4" then return ProtoField.ipv4(abbrev, label, doc)
  -- ProtoField.string drops its description in Wireshark 4.0; ProtoField.new keeps it.
  elseif ftype == "FT_STRING" then return ProtoField.new(label, abbrev, ftypes.STRING, nil, base.NONE, nil, doc)
  elseif ftype == "FT_STRINGZ" then return ProtoField.stringz(abbrev, label, base.NONE, doc)
  elseif ftype == "FT_BYTES" then return ProtoField.bytes(abbrev, label, base.NONE, doc)
  elseif ftype == "FT_NONE" then return ProtoField.none(abbrev, label, doc)
  elseif ftype == "FT_FRAMENUM" then
    local kind = abbrev:match("%.response_in$") and frametype.RESPONSE or frametype.REQUEST
    return ProtoField.framenum(abbrev, label, base.NONE, kind, nil, doc)
  elseif ftype == "FT_RELATIVE_TIME" then return ProtoField.relative_time(abbrev, label, doc)
  end
  error("gamequery: no ProtoField for " .. ftype)
end

for _, P in ipairs(SPEC.protocols) do
  local proto = Proto(P.name, P.description)
  P.proto = proto
  P.rows, P.port_set, P.charset_names = {}, {}, {}
  local list = {}
  for _, r in ipairs(P.fields) do
    P.rows[r[1]] = { label = r[2], base = r[4], values = r[5] }
    if r[1] == P.name .. ".malformed" then
      P.expert = ProtoExpert.new(r[1], r[2], expert.group.MALFORMED, expert.severity.ERROR)
    else
      HF[r[1]] = protofield(r)
      list[#list + 1] = HF[r[1]]
    end
  end
  proto.fields = list
  -- One expert item per declared warning code, after the malformed one.
  local experts = { P.expert }
  P.expert_of = {}
  for _, mine in ipairs(P.experts) do
    local e = EXPERTS[mine.code]
    local item = ProtoExpert.new(mine.a, e.summary, GROUPS[e.group], SEVERITIES[e.severity])
    P.expert_of[e.code] = { item = item, summary = e.summary }
    experts[#experts + 1] = item
  end
  proto.experts = experts

  local choices, default = {}, 1
  for i, name in ipairs(SPEC.charsets) do
    choices[i] = { i, name, i }
    P.charset_names[i] = name
    if name == P.charset then default = i end
  end
  proto.prefs.charset = Pref.enum("Text encoding", default, "Charset of the strings (none of these protocols says)", choices, false)
  proto.prefs.force = Pref.bool("Claim every datagram on the registered ports", false,
    "Dissect every datagram on the ports above (or Decode As) as " .. P.display .. ", even without its signature")
  if P.secrets then
    proto.prefs.show_secrets = Pref.bool("Show secrets (RCON passwords)", false,
      "Show passwords in clear in the tree and the Info column: off, a request's password and one its command sets are "
        .. "masked there, in the request and in the replies that echo them. The packet bytes pane shows them either way.")
  end

  proto.init = reset_state
  proto.dissector = function(tvb, pinfo, tree)
    local d = decision(P, tvb, pinfo, "port")
    if d then return dissect(P, tvb, pinfo, tree, d) end
    local previous = P.previous[pinfo.dst_port] or P.previous[pinfo.src_port]
    if previous then return previous:call(tvb, pinfo, tree) end
    return 0
  end
  proto:register_heuristic("udp", function(tvb, pinfo, tree)
    local d = decision(P, tvb, pinfo, "heuristic")
    if not d then return false end
    dissect(P, tvb, pinfo, tree, d)
    return true
  end)

  P.previous = {}
  for _, port in ipairs(P.ports) do
    P.port_set[port] = true
    P.previous[port] = udp_port_table:get_dissector(port)
    udp_port_table:add(port, proto)
  end
end
