import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCodes, ModelError, WalkerError } from '../../../core/errors.js';
import type { ModelFormat } from '../../../core/format.js';
import { formatOf } from '../../../core/model/formats.js';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { createRegistries, installPlugins, type WalkerPlugin } from '../../../core/plugin.js';
import { ExecutionSession } from '../../../core/session.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';

/**
 * A format a plugin could add: one line per edge, `source -> target : name`, `-> target` for the start edge.
 * Small enough to read here, and enough to show that a registered format goes wherever a model goes.
 */
const arrowsFormat: ModelFormat = {
  name: 'arrows',
  extensions: ['.arrows'],
  mediaType: 'text/x-arrows',
  detect: (text) => text.startsWith('arrows\n'),
  read(text, source) {
    const lines = text.split('\n').slice(1).filter((l) => l.trim() !== '');
    const vertices = new Set<string>();
    const edges = lines.map((line, i) => {
      const found = /^(\w*) -> (\w+) : (\w+)$/.exec(line);
      if (found === null) throw new ModelError(`line ${i + 2}: expected 'source -> target : name'`, { source: source.path }, ErrorCodes.MODEL_SYNTAX);
      if (found[1] !== '') vertices.add(found[1]);
      vertices.add(found[2]);
      return { id: `e${i}`, name: found[3], targetVertexId: found[2], ...(found[1] === '' ? {} : { sourceVertexId: found[1] }) };
    });
    const start = edges.find((e) => e.sourceVertexId === undefined)?.id;
    return { models: [{ id: 'arrows', startElementId: start, vertices: [...vertices].map((id) => ({ id, name: id })), edges }] };
  },
  write(file) {
    const edges = file.models[0].edges;
    return `arrows\n${edges.map((e) => `${e.sourceVertexId ?? ''} -> ${e.targetVertexId} : ${e.name}`).join('\n')}\n`;
  },
};

const arrowsPlugin: WalkerPlugin = {
  meta: { name: 'walker-plugin-arrows', version: '1.0.0' },
  setup: (registries) => registries.formats.register(arrowsFormat),
};

const LOOP = 'arrows\n -> a : e_Start\na -> b : e_Go\nb -> a : e_Back\n';
const scratch = mkdtempSync(join(tmpdir(), 'walker-formats-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const walker = await Walker.create([...builtinPlugins(), arrowsPlugin]);
const formats = walker.registries.formats;
const small = loadModelFile(readFileSync('test/fixtures/models/graphwalker/SmallModel.json', 'utf8')).file;

describe('the format contract, for every registered format', () => {
  for (const format of formats.values()) {
    describe(format.name, () => {
      it('has a name, file extensions and a media type', () => {
        expect(format.name).toMatch(/^[a-z]+$/);
        expect(format.extensions.every((e) => /^\.[a-z]+$/.test(e))).toBe(true);
        expect(format.mediaType).toMatch(/^[a-z]+\/[\w.+-]+$/);
        expect(format.read !== undefined || format.write !== undefined, 'a format reads or writes').toBe(true);
      });
      const write = format.write?.bind(format);
      // What a format does is checked; a format that only writes has its text refused on read, by name.
      if (write !== undefined) {
        // The least a format holds (arrows keeps only the edges' names and ends).
        it('writes a text that names every edge of the model', () => {
          const text = write(small);
          const names = small.models[0].edges.map((e) => e.name).filter((n) => n !== undefined);
          expect(names.length).toBeGreaterThan(0);
          expect(names.filter((name) => !text.includes(name))).toEqual([]);
        });
      }
      if (write !== undefined && format.read !== undefined) {
        const read = format.read.bind(format);
        it('writes text its own detect recognises, and reads it back as the model it wrote', () => {
          const text = write(small);
          expect(format.detect?.(text)).toBe(true);
          expect(formatOf(text, formats)).toBe(format);
          const again = loadModelFile(read(text, {})).file;
          // The arrows format keeps only names and ends: it is compared on those.
          const shape = (f: ModelFileJson) => f.models[0].edges.map((e) => [e.name, e.sourceVertexId, e.targetVertexId]);
          if (format === arrowsFormat) expect(shape(again)).toEqual(shape(small));
          else expect(again).toEqual(small);
        });
      } else if (write !== undefined) {
        it('refuses its own text as a model file, naming the formats walker reads', () => {
          const readable = [...formats.values()].filter((f) => f.read !== undefined).map((f) => f.name);
          const path = `m${format.extensions[0]}`;
          expect(() => formatOf(write(small), formats, path)).toThrow(
            `walker writes the ${format.name} format but cannot read it; give a model file in one of: ${readable.join(', ')}`,
          );
        });
      }
    });
  }
});

describe('choosing the format of a text', () => {
  it('takes the extension first, then the content, then JSON', () => {
    expect(formatOf('{"models": []}', formats, 'a.graphml').name).toBe('graphml');
    expect(formatOf('<graphml/>', formats, 'a.json').name).toBe('json');
    expect(formatOf('<graphml/>', formats).name).toBe('graphml');
    expect(formatOf(LOOP, formats).name).toBe('arrows');
    expect(formatOf('not a model', formats).name).toBe('json');
    // Without registries, JSON is all there is.
    expect(formatOf('<graphml/>', undefined).name).toBe('json');
  });

  it('refuses a file in a format walker only writes, naming the readable ones', () => {
    expect(() => formatOf('digraph {}', formats, 'm.dot')).toThrow(
      new ModelError('walker writes the dot format but cannot read it; give a model file in one of: json, graphml, arrows', { source: 'm.dot' }, ErrorCodes.MODEL_SYNTAX),
    );
  });
});

describe('a format from a plugin goes wherever a model goes', () => {
  it('reads a file in it with Walker.open and walks it', async () => {
    const path = join(scratch, 'loop.arrows');
    writeFileSync(path, LOOP);
    const walk = await walker.open({ file: path, generator: 'random(edge_coverage(100))', seed: 1 });
    const names: string[] = [];
    while (walk.hasNext()) names.push(walk.next().name);
    walk.dispose();
    expect(names).toEqual(['e_Start', 'a', 'e_Go', 'b', 'e_Back', 'a']);
  });

  it('loads a text in it into a session, recognised by its content', () => {
    const session = new ExecutionSession(walker);
    expect(() => session.load(LOOP)).toThrow(/^Model has no generator specified: a arrows model file carries none/);
    expect(session.load(LOOP, { generator: 'random(length(1))' }).seed).toBeTypeOf('number');
    expect(session.machine.next().name).toBe('e_Start');
    session.dispose();
  });

  it('is refused at startup when its name is taken', async () => {
    const clash: WalkerPlugin = { meta: { name: 'clash', version: '1' }, setup: (r) => r.formats.register({ ...arrowsFormat, name: 'GraphML' }) };
    const error = await installPlugins(createRegistries(), [...builtinPlugins(), clash]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalkerError);
    expect((error as WalkerError).message).toBe("The model format name 'graphml' of plugin 'clash' is already registered by plugin 'walker-formats'.");
  });
});
