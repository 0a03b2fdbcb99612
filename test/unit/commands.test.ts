import { describe, expect, it } from 'vitest';
import { backgroundRequest, parseCommand } from '../../src/domain/commands.js';

describe('parseCommand', () => {
  it('parses a bare command with empty args', () => {
    expect(parseCommand('/stop')).toEqual({ name: 'stop', args: '' });
  });

  it('lowercases the command name', () => {
    expect(parseCommand('/STOP')).toEqual({ name: 'stop', args: '' });
    expect(parseCommand('/New')).toEqual({ name: 'new', args: '' });
  });

  it('accepts a command addressed to this bot, whatever the case of the username', () => {
    expect(parseCommand('/stop@MyBot', 'mybot')).toEqual({ name: 'stop', args: '' });
    expect(parseCommand('/stop@mybot', 'MyBot')).toEqual({ name: 'stop', args: '' });
  });

  it('ignores a command addressed to another bot', () => {
    expect(parseCommand('/stop@OtherBot', 'MyBot')).toBeNull();
    expect(parseCommand('/new some topic@x', 'MyBot')).toEqual({ name: 'new', args: 'some topic@x' });
  });

  it('accepts an addressed command when the bot username is not known', () => {
    expect(parseCommand('/stop@AnyBot')).toEqual({ name: 'stop', args: '' });
  });

  it('keeps the arguments after the command, trimmed', () => {
    expect(parseCommand('/new topic here')).toEqual({ name: 'new', args: 'topic here' });
    expect(parseCommand('/new@MyBot   topic here  ', 'MyBot')).toEqual({ name: 'new', args: 'topic here' });
  });

  it('keeps multi-line arguments', () => {
    expect(parseCommand('/new first line\nsecond line')).toEqual({ name: 'new', args: 'first line\nsecond line' });
  });

  it('ignores leading and trailing whitespace around the command', () => {
    expect(parseCommand('  /stop  ')).toEqual({ name: 'stop', args: '' });
    expect(parseCommand('\n\t/stop\n')).toEqual({ name: 'stop', args: '' });
  });

  it('is null for text that is not a command', () => {
    expect(parseCommand('stop')).toBeNull();
    expect(parseCommand('hello /stop')).toBeNull();
    expect(parseCommand('/')).toBeNull();
    expect(parseCommand('')).toBeNull();
    expect(parseCommand('   ')).toBeNull();
  });

  it('is null for a message without text', () => {
    expect(parseCommand(undefined)).toBeNull();
    expect(parseCommand(undefined, 'MyBot')).toBeNull();
  });

  it('is null when the command is glued to other characters', () => {
    expect(parseCommand('/stop!')).toBeNull();
    expect(parseCommand('/停止')).toBeNull();
  });

  it('allows command names up to 32 characters, not 33', () => {
    expect(parseCommand(`/${'a'.repeat(32)}`)).toEqual({ name: 'a'.repeat(32), args: '' });
    expect(parseCommand(`/${'a'.repeat(33)}`)).toBeNull();
  });
});

describe('/background arguments', () => {
  it('lists without arguments, leaves on off (any language), picks by number or name', () => {
    expect(backgroundRequest('')).toEqual({ kind: 'list' });
    expect(backgroundRequest(' OFF ')).toEqual({ kind: 'off' });
    expect(backgroundRequest('关闭')).toEqual({ kind: 'off' });
    expect(backgroundRequest('2')).toEqual({ kind: 'pick', n: 2 });
    expect(backgroundRequest('Wasteland 2087')).toEqual({ kind: 'name', name: 'Wasteland 2087' });
  });
});
