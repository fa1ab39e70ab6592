// Keeps the SDK's declarations (pkrelay.d.ts), its code (pkrelay.js), its reference
// (docs/SDK.md) and the protocol (docs/PROTOCOL.md) from drifting apart: every exported name,
// class member and event of the declarations must exist in the module and appear in the
// reference, the module must have nothing public that the declarations lack, and the events
// and error codes must be those of the protocol.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import * as sdk from '../../Sources/PKRelayServer/SDK/pkrelay.js';

const root = new URL('../../', import.meta.url);
const dts = readFileSync(new URL('Sources/PKRelayServer/SDK/pkrelay.d.ts', root), 'utf8');
const guide = readFileSync(new URL('docs/SDK.md', root), 'utf8');
const protocol = readFileSync(new URL('docs/PROTOCOL.md', root), 'utf8');

/** The body of `declare class Name … { … }` (classes hold no nested braces at line starts). */
function classBody(name) {
  const start = dts.search(new RegExp(`declare class ${name}\\b`));
  assert.ok(start >= 0, `pkrelay.d.ts declares class ${name}`);
  const open = dts.indexOf('{', start);
  const close = dts.indexOf('\n}', open);
  return dts.slice(open + 1, close);
}

/** Members declared at the first level of a class body: {name, method}. */
function members(body) {
  const out = [];
  for (const line of body.split('\n')) {
    const m = /^  (?:readonly )?([A-Za-z]\w*)(\??)(<[^(]*>)?(\(|:)/.exec(line);
    if (m && m[1] !== 'constructor') out.push({name: m[1], method: m[4] === '('});
  }
  return out;
}

/** Keys of `export interface Name { … }`. */
function interfaceKeys(name) {
  const start = dts.indexOf(`export interface ${name} {`);
  assert.ok(start >= 0, `pkrelay.d.ts declares ${name}`);
  const body = dts.slice(start, dts.indexOf('\n}', start));
  return [...body.matchAll(/^  (\w+):/gm)].map((m) => m[1]);
}

const exported = [...dts.matchAll(/^export declare (const|class|function) (\w+)/gm)].map((m) => ({kind: m[1], name: m[2]}));
const classes = exported.filter((e) => e.kind === 'class').map((e) => e.name);
// PKRelayClient and Room inherit on/once/off from the (unexported) Emitter.
const emitterMembers = members(classBody('Emitter'));

test('every export of the declarations exists in the module, and the module exports nothing undeclared', () => {
  assert.ok(exported.length > 20, `found ${exported.length} declared exports`);
  for (const {kind, name} of exported) {
    assert.ok(name in sdk, `pkrelay.js exports ${name}`);
    if (kind !== 'const') assert.equal(typeof sdk[name], 'function', `${name} is a ${kind}`);
  }
  const declared = new Set(exported.map((e) => e.name));
  for (const name of Object.keys(sdk)) assert.ok(declared.has(name), `pkrelay.d.ts declares the export ${name}`);
});

test('every declared method exists on its class, and every public method of a class is declared', () => {
  for (const name of classes) {
    const declared = members(classBody(name));
    const inherits = /declare class \w+ extends Emitter/.test(dts.slice(dts.search(new RegExp(`declare class ${name}\\b`))).split('\n')[0]);
    const all = inherits ? [...declared, ...emitterMembers] : declared;
    const proto = sdk[name].prototype;
    for (const member of all.filter((m) => m.method)) {
      assert.equal(typeof proto[member.name], 'function', `${name}.${member.name} is a method of pkrelay.js`);
    }
    const names = new Set(all.map((m) => m.name));
    for (let p = proto; p && p !== Object.prototype && p !== Error.prototype; p = Object.getPrototypeOf(p)) {
      for (const key of Object.getOwnPropertyNames(p)) {
        if (key === 'constructor' || key.startsWith('_')) continue;
        assert.ok(names.has(key), `pkrelay.d.ts declares ${name}.${key}`);
      }
    }
  }
});

test('docs/SDK.md names every export, class member and event of the declarations', () => {
  for (const {name} of exported) assert.ok(guide.includes('`' + name + '`'), `docs/SDK.md names \`${name}\``);
  for (const name of classes) {
    const all = [...members(classBody(name)), ...(['PKRelayClient', 'Room'].includes(name) ? emitterMembers : [])];
    for (const member of all) {
      const written = new RegExp('`' + name + '\\.' + member.name + '(\\(|`)');
      assert.ok(written.test(guide), `docs/SDK.md documents \`${name}.${member.name}\``);
    }
  }
  for (const event of [...interfaceKeys('RelayEventMap'), ...interfaceKeys('SDKEventMap')]) {
    assert.ok(guide.includes('| `' + event + '` |'), `docs/SDK.md lists the event ${event}`);
  }
  for (const [key, value] of Object.entries(sdk.ErrorCode)) {
    assert.ok(guide.includes(`| \`${key}\` | ${value} |`) || guide.includes(`| ${value} | \`${key}\``), `docs/SDK.md gives ErrorCode.${key} = ${value}`);
  }
});

test('the declared events are the module\'s, and the relay\'s are those of PROTOCOL.md section 4', () => {
  assert.deepEqual([...sdk.RELAY_EVENTS].sort(), interfaceKeys('RelayEventMap').sort());
  assert.deepEqual([...sdk.SDK_EVENTS].sort(), interfaceKeys('SDKEventMap').sort());
  const section = protocol.slice(protocol.indexOf('\n## 4. Events'), protocol.indexOf('\n## 5. Enumerations'));
  const documented = [...section.matchAll(/^\| `(on\w+)` \|/gm)].map((m) => m[1]);
  assert.ok(documented.length > 20);
  assert.deepEqual([...sdk.RELAY_EVENTS].sort(), documented.sort());
});

test('ErrorCode matches its declaration and holds every code of PROTOCOL.md section 6', () => {
  const declaration = dts.slice(dts.indexOf('export declare const ErrorCode'), dts.indexOf('}>;', dts.indexOf('export declare const ErrorCode')));
  const declared = Object.fromEntries([...declaration.matchAll(/(\w+): (-?\d+)/g)].map((m) => [m[1], Number(m[2])]));
  assert.deepEqual({...sdk.ErrorCode}, declared);
  const section = protocol.slice(protocol.indexOf('\n## 6. Error codes'), protocol.indexOf('\n## 7. Media'));
  const relayCodes = [...section.matchAll(/^\| (-?\d+) \| (\w+) \|/gm)].map((m) => ({code: Number(m[1]), name: m[2]}));
  assert.ok(relayCodes.length > 40);
  for (const {code, name} of relayCodes) {
    assert.equal(sdk.ErrorCode[name], code, `ErrorCode.${name} is ${code} as in PROTOCOL.md`);
  }
  // The SDK's own codes never collide with the relay's.
  const relayValues = new Set(relayCodes.map((c) => c.code));
  for (const name of ['RequestTimeout', 'NotConnected', 'ConnectFailed', 'ReconnectFailed', 'MediaFailed', 'TokenProviderFailed']) {
    assert.ok(!relayValues.has(sdk.ErrorCode[name]), `${name} is not a relay code`);
  }
});

test('the enumerations carry the protocol\'s numbers', () => {
  const table = (heading) => {
    const start = protocol.indexOf(`\n### ${heading}`);
    const body = protocol.slice(start, protocol.indexOf('\n### ', start + 5));
    return Object.fromEntries([...body.matchAll(/^\| (\d+) \| (\w+)/gm)].map((m) => [m[2], Number(m[1])]));
  };
  assert.deepEqual({...sdk.UnpublishReason}, table('Unpublish reasons'));
  assert.deepEqual({...sdk.LeaveReason}, table('Leave reasons'));
  assert.deepEqual({...sdk.SubscribeState}, table('Subscribe states'));
  assert.deepEqual({...sdk.ForwardState}, table('Forward states'));
  assert.deepEqual({...sdk.ForwardEvent}, table('Forward events'));
  assert.deepEqual({...sdk.InvitationState}, table('Invitation states'));
});

/** The quoted event names of `export type RoomEventName = …;`. */
function roomEventNames() {
  const start = dts.indexOf('export type RoomEventName =');
  assert.ok(start >= 0, 'pkrelay.d.ts declares RoomEventName');
  return [...dts.slice(start, dts.indexOf(';', start)).matchAll(/'(on\w+)'/g)].map((m) => m[1]);
}

test('each emitter accepts exactly the events its declaration types: a Room refuses client-only events', () => {
  const all = [...interfaceKeys('RelayEventMap'), ...interfaceKeys('SDKEventMap')];
  const roomEvents = new Set(roomEventNames());
  assert.ok(roomEvents.size > 20, `found ${roomEvents.size} Room events`);
  for (const name of roomEvents) assert.ok(all.includes(name), `RoomEventName's ${name} is an event of EventMap`);
  for (const name of ['onRemoteTrackAdded', 'onRemoteTrackRemoved', 'onConnectionStateChanged', 'onReconnected', 'onTransportOffer', 'onTransportStateChanged']) {
    assert.ok(!roomEvents.has(name), `${name} is the client's alone`);
  }
  const client = new sdk.PKRelayClient({url: 'ws://relay.test/rtc'});
  const room = new sdk.Room(client, {roomId: 'r', userId: 'u', token: 't'});
  for (const name of all) {
    assert.doesNotThrow(() => client.on(name, () => {}), `the client accepts ${name}`);
    if (roomEvents.has(name)) assert.doesNotThrow(() => room.on(name, () => {}), `a Room accepts ${name}`);
    else assert.throws(() => room.on(name, () => {}), TypeError, `a Room refuses ${name}, which it never emits`);
  }
  // The reference lists the same events for a Room.
  const line = guide.split('\n').find((l) => l.startsWith('A `Room` emits'));
  assert.ok(line, 'docs/SDK.md has a line starting "A `Room` emits"');
  assert.deepEqual([...line.matchAll(/`(on\w+)`/g)].map((m) => m[1]).sort(), [...roomEvents].sort());
});
