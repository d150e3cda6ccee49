import { generateModel } from '../core/model/generate.js';
import type { ModelFileJson } from '../core/model/types.js';
import type { BenchRow, BenchSection } from './report.js';
import { sampleModel } from './samples.js';
import { Host } from './http-host.js';
import type { HostKind } from './service-host.js';

const SECTION = 'service';
/** Each measurement gets this much time in all, in slices alternating with the bare route's. */
const RUN_MS = 2_000;
const SLICES = 8;
const WARM_UP_MS = 1_000;
/** The target: the service reaches this share of the bare route's rate. */
const TARGET_SHARE = 0.8;
const MODELS = ['SmallModel.json', 'Login.json', 'PetClinic.json', 'SuperLarge.json'];
const LARGE = { vertices: 10_000, edges: 50_000, seed: 2026 };
const METRIC = 'steps/s (hasNext + getNext)';
/** GraphWalker's dialect as AltWalker drives it: the server started with --verbose, so every step reads the data. */
const GRAPHWALKER_MODELS = ['Login.json', 'PetClinic.json'];

/**
 * Steps per second of a client that loops hasNext/getNext over one keep-alive connection, against walker for
 * each model and, in slices alternating with it, against a bare Fastify route with constant answers (the
 * transport's limit here). The best slice of each counts: other load on the machine only ever slows a slice
 * down, and alternating exposes both sides to the same load. Every model walks `random(never)`, so a
 * measurement is never cut short by a stop condition.
 */
export const benchService: BenchSection = async () => {
  const subjects: Array<[string, string]> = MODELS.map((name) => [name, neverEnding(JSON.parse(sampleModel(name)) as ModelFileJson)]);
  subjects.push(['generated 10k/50k', neverEnding(generateModel(LARGE))]);
  const dialects: Subject[] = [
    ...subjects.map(([name, text]): Subject => ({ name, text, kind: 'walker', prefix: '/walker' })),
    ...GRAPHWALKER_MODELS.map((name): Subject => ({
      name: `/graphwalker --verbose: ${name}`,
      text: neverEnding(JSON.parse(sampleModel(name)) as ModelFileJson),
      kind: 'walker-verbose',
      prefix: '/graphwalker',
    })),
  ];
  const bare = await Host.start('bare');
  const rows: BenchRow[] = [];
  let bareBest = 0;
  try {
    for (const subject of dialects) {
      const [walker, reference] = await compare(bare, subject);
      bareBest = Math.max(bareBest, reference);
      const goal = Math.round(reference * TARGET_SHARE);
      const share = `${Math.round((100 * walker) / reference)} % of bare`;
      const target = `>= ${goal.toLocaleString('en-US')} (80 % of bare)`;
      rows.push({ section: SECTION, subject: `${subject.name} (${share})`, metric: METRIC, value: walker, target, met: walker >= goal });
    }
  } finally {
    await bare.close();
  }
  return [{ section: SECTION, subject: 'bare Fastify route, constant getNext', metric: METRIC, value: bareBest }, ...rows];
};

/** The model file with every generator replaced by one that never ends. */
export function neverEnding(file: ModelFileJson): string {
  return JSON.stringify({ ...file, models: file.models.map((m) => ({ ...m, generator: 'random(never)' })) });
}

/** A model walked through one dialect, by a server started one way. */
interface Subject {
  readonly name: string;
  readonly text: string;
  readonly kind: HostKind;
  /** The dialect's path, which the bare route serves too. */
  readonly prefix: string;
}

/** Best slice rates of walker (with the model loaded) and of the bare route, measured alternately. */
async function compare(bare: Host, subject: Subject): Promise<[number, number]> {
  const walker = await Host.start(subject.kind);
  const { prefix } = subject;
  try {
    const answer = await walker.client.send('POST', `${prefix}/load`, subject.text);
    if (!answer.includes('"result":"ok"')) throw new Error(`load failed: ${answer.slice(0, 200)}`);
    await walker.client.loop(WARM_UP_MS, prefix);
    await bare.client.loop(WARM_UP_MS, prefix);
    let best: [number, number] = [0, 0];
    for (let i = 0; i < SLICES; i++) {
      const w = await walker.client.loop(RUN_MS / SLICES, prefix);
      const b = await bare.client.loop(RUN_MS / SLICES, prefix);
      best = [Math.max(best[0], w), Math.max(best[1], b)];
    }
    return best;
  } finally {
    await walker.close();
  }
}
