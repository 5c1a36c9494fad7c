import { describe, expect, it } from 'vitest';
import {
  BadMagicError,
  CodecError,
  InvalidValueError,
  LengthOutOfRangeError,
  TruncatedError,
  UnexpectedValueError,
  fromHex,
  nodeJson,
  mcquery,
  samp,
} from '@gamequery/codec';

describe('typed errors', () => {
  it('reports a cut string with layout, field, offset, needed and available', () => {
    // 53 41 4d 50 7f 00 00 01 61 1e 69 | 00 | 01 00 | 02 00 | 0c 00 00 00 | "Server "
    const bytes = fromHex('53414d507f000001611e6900010002000c00000053657276657220');
    const err = (() => {
      try {
        samp.infoResponse.decode(bytes);
      } catch (e) {
        return e;
      }
    })() as TruncatedError;
    expect(err).toBeInstanceOf(TruncatedError);
    expect(err).toBeInstanceOf(CodecError);
    expect(err.name).toBe('TruncatedError');
    expect(err.info).toEqual({ layout: 'samp.info.response', field: 'samp.info.hostname', offset: 20, needed: 12, available: 7 });
    expect(err.message).toBe('samp.info.hostname: requested 12 bytes, but only 7 bytes available at offset 20');
    expect(err.toJSON()).toMatchObject({ type: 'TruncatedError', offset: 20 });
  });

  it('reports a wrong magic and a wrong opcode', () => {
    expect(() => samp.infoRequest.decode(fromHex('53414d517f000001611e69'))).toThrow(BadMagicError);
    expect(() => samp.infoRequest.decode(fromHex('53414d507f000001611e72'))).toThrow(UnexpectedValueError);
    expect(() => samp.infoRequest.decode(fromHex('53414d507f000001611e72'))).toThrow(
      'samp.opcode: expected i (Information) (0x69), got r (Rules) (0x72) at offset 10',
    );
  });

  it('reports an invalid decimal token', () => {
    expect(() => mcquery.handshakeResponse.decode(fromHex('09000000013132610000'))).toThrow(InvalidValueError);
    expect(() => mcquery.handshakeResponse.decode(fromHex('0900000001393939393939393939393900'))).toThrow(
      'is not a decimal signed 32-bit integer',
    );
  });

  it('never quotes a secret: encoding errors mask the password, a password cut short is a secret malformed item', () => {
    const at = { serverIp: '127.0.0.1', serverPort: 7777 };
    const secret = 'Пароль-hunter2';
    const errorOf = (f: () => unknown): InvalidValueError => {
      try {
        f();
      } catch (e) {
        return e as InvalidValueError;
      }
      throw new Error('no error');
    };
    for (const e of [
      errorOf(() => samp.rconRequest.encode({ ...at, password: secret, command: 'players' })),
      errorOf(() => samp.rconRequest.encode({ ...at, password: 12345 as unknown as string, command: 'players' })),
    ]) {
      expect(e).toBeInstanceOf(InvalidValueError);
      expect(e.info.field).toBe('samp.rcon.password');
      expect(JSON.stringify({ json: e.toJSON(), message: e.message, info: e.info })).not.toMatch(/hunter2|12345/);
    }
    // The command is no secret: its value may be quoted.
    expect(errorOf(() => samp.rconRequest.encode({ ...at, password: 'x', command: 'Привет' })).info.actual).toBe('Привет');
    const whole = samp.rconRequest.encode({ ...at, password: 'hunter2', command: 'players' });
    const cut = samp.rconRequest.annotate(whole.subarray(0, 16));
    expect(cut.error?.info.field).toBe('samp.rcon.password');
    expect(cut.fields.at(-1)).toMatchObject({ abbrev: 'samp.malformed', offset: 13, length: 3, secret: true });
    expect(samp.rconRequest.annotate(whole.subarray(0, 12)).fields.at(-1)!.secret).toBeUndefined();
  });

  it('treats a command that sets a password as a secret in part: the tree, its JSON, the Info column and errors mask it', () => {
    const at = { serverIp: '127.0.0.1', serverPort: 7777 };
    const setting = samp.rconRequest.annotate(samp.rconRequest.encode({ ...at, password: 'x', command: 'rcon_password hunter3' }));
    const command = setting.fields.find((n) => n.abbrev === 'samp.rcon.command')!;
    expect(command).toMatchObject({ value: 'rcon_password hunter3', secret: true, masked: 'rcon_password ********' });
    expect(nodeJson(command, false)).toMatchObject({ value: 'rcon_password ********', show: 'rcon_password ********' });
    expect(nodeJson(command, true)).toMatchObject({ value: 'rcon_password hunter3' });
    expect(setting.info).toBe('SA:MP rcon request: rcon_password ********');
    expect(
      samp.rconRequest.annotate(samp.rconRequest.encode({ ...at, password: 'x', command: '  PASSWORD  join me' })).fields.at(-1)!.masked,
    ).toBe('  PASSWORD  ********');
    for (const plain of ['players', 'rcon_password', 'passwords x', 'say rcon_password x']) {
      const n = samp.rconRequest.annotate(samp.rconRequest.encode({ ...at, password: 'x', command: plain })).fields.at(-1)!;
      expect(n.secret, plain).toBeUndefined();
    }
    const e = (() => {
      try {
        samp.rconRequest.encode({ ...at, password: 'x', command: 'rcon_password Пароль' });
      } catch (err) {
        return err as InvalidValueError;
      }
    })()!;
    expect(e.info.actual).toBe('rcon_password ********');
  });

  it('refuses to encode what the wire cannot carry', () => {
    const base = { serverIp: '127.0.0.1', serverPort: 7777 };
    expect(() => samp.rulesResponse.encode({ ...base, rules: [{ name: 'x'.repeat(256), value: '' }] })).toThrow(LengthOutOfRangeError);
    expect(() => samp.rulesResponse.encode({ ...base, rules: [{ name: 'x'.repeat(256), value: '' }] })).toThrow(
      'samp.rule.name.len: length 256 is out of range (0..255) at offset 13',
    );
    expect(() => samp.clientsResponse.encode({ ...base, clients: [{ name: 'a', score: 2 ** 31 }] })).toThrow(InvalidValueError);
    expect(() => samp.clientsResponse.encode({ ...base, serverPort: 70000, clients: [] })).toThrow('samp.server_port');
    expect(() => samp.clientsResponse.encode({ ...base, serverIp: '1.2.3', clients: [] })).toThrow('expected dotted IPv4 text');
    expect(() =>
      samp.infoResponse.encode({ ...base, password: false, players: 0, maxPlayers: 0, hostname: 'Привет', gamemode: '', language: '' }),
    ).toThrow('text has characters that windows-1252 cannot encode');
    expect(() =>
      mcquery.fullResponse.encode({ sessionId: 1, splitnum: new Uint8Array(11), kv: [{ key: '', value: 'x' }], players: [] }),
    ).toThrow('an empty first string would end the list');
    expect(() => mcquery.fullResponse.encode({ sessionId: 1, splitnum: new Uint8Array(11), kv: [], players: ['a\0b'] })).toThrow(
      'cannot contain NUL',
    );
  });

  it('keeps what was decoded before the error in the annotation', () => {
    const ann = samp.clientsResponse.annotate(fromHex('53414d507f000001611e6302000141010000000142'));
    expect(ann.error).toBeInstanceOf(TruncatedError);
    expect(ann.partial).toEqual({ serverIp: '127.0.0.1', serverPort: 7777, clients: [{ name: 'A', score: 1 }] });
    const entries = ann.fields.filter((n) => n.abbrev === 'samp.client');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ offset: 13, length: 6, show: 'A (1)' });
    expect(entries[1]).toMatchObject({ offset: 19, length: 2 });
    expect(entries[1]!.children!.map((c) => c.abbrev)).toEqual(['samp.client.name.len', 'samp.client.name']);
    expect(ann.fields.at(-1)).toMatchObject({ abbrev: 'samp.malformed', offset: 21, generated: true });
  });
});

describe('stack traces: taken for an error thrown to the caller, not for one that describes bytes', () => {
  // The same cut info reply as above.
  const bytes = fromHex('53414d507f000001611e6900010002000c00000053657276657220');

  it('annotate returns its error with no frames; decode throws it with its frames; the limit is left as it was', () => {
    const limit = Error.stackTraceLimit;
    const annotated = samp.infoResponse.annotate(bytes).error!;
    expect(annotated).toBeInstanceOf(TruncatedError);
    expect(annotated.stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    let thrown: Error | undefined;
    try {
      samp.infoResponse.decode(bytes);
    } catch (e) {
      thrown = e as Error;
    }
    expect(thrown).toBeInstanceOf(TruncatedError);
    expect(thrown!.message).toBe(annotated.message);
    expect(thrown!.stack).toMatch(/\n\s+at /);
  });

  it('withoutStacks puts the limit back after a throw too', async () => {
    const { withoutStacks } = await import('../src/grammar/stacks.ts');
    const limit = Error.stackTraceLimit;
    expect(() =>
      withoutStacks(() => {
        expect(Error.stackTraceLimit).toBe(0);
        throw new RangeError('out');
      }),
    ).toThrow('out');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(withoutStacks(() => 42)).toBe(42);
  });
});
