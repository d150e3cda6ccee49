import { setTimeout as sleep } from 'node:timers/promises';
import { generateModel } from '../core/model/generate.js';
import type { ModelFileJson } from '../core/model/types.js';
import { Host } from './http-host.js';
import type { BenchRow, BenchSection } from './report.js';
import { sampleModel } from './samples.js';
import { neverEnding } from './service.js';
import { Viewer } from './viewer.js';

const SECTION = 'view';
const SLICE_MS = 250;
const SLICES = 8;
const WARM_UP_MS = 1_000;
/** The target: a walk watched by one viewer keeps this share of its rate alone. */
const TARGET_SHARE = 0.9;
const METRIC = 'steps/s (hasNext + getNext)';
const LARGE = { vertices: 10_000, edges: 50_000, seed: 2026 };

/**
 * What the web view costs a walk over REST: a client loops hasNext/getNext on the default session with nobody
 * watching, then with one viewer on the session's event stream (docs/view.md), then against the bare route, in
 * slices that alternate so that the three meet the same load; the best slice of each counts. A walk nobody
 * watches should answer as the service section's walk does; one viewer should cost it at most a tenth.
 */
export const benchView: BenchSection = async () => {
  const subjects: Array<[string, string]> = [
    ['Login.json', neverEnding(JSON.parse(sampleModel('Login.json')) as ModelFileJson)],
    ['PetClinic.json', neverEnding(JSON.parse(sampleModel('PetClinic.json')) as ModelFileJson)],
    ['generated 10k/50k', neverEnding(generateModel(LARGE))],
  ];
  const bare = await Host.start('bare');
  const rows: BenchRow[] = [];
  try {
    for (const [name, text] of subjects) rows.push(...(await measure(bare, name, text)));
  } finally {
    await bare.close();
  }
  return rows;
};

async function measure(bare: Host, name: string, text: string): Promise<BenchRow[]> {
  const walker = await Host.start('walker');
  try {
    const answer = await walker.client.send('POST', '/walker/load', text);
    if (!answer.includes('"result":"ok"')) throw new Error(`load failed: ${answer.slice(0, 200)}`);
    await walker.client.loop(WARM_UP_MS, '/walker');
    await bare.client.loop(WARM_UP_MS, '/walker');
    const best = { bare: 0, alone: 0, watched: 0 };
    for (let i = 0; i < SLICES; i++) {
      best.alone = Math.max(best.alone, await walker.client.loop(SLICE_MS, '/walker'));
      const viewer = await Viewer.open(walker.client.port, '/walker/view/session/events');
      best.watched = Math.max(best.watched, await walker.client.loop(SLICE_MS, '/walker'));
      viewer.close();
      best.bare = Math.max(best.bare, await bare.client.loop(SLICE_MS, '/walker'));
      // Until the server has seen the viewer go and let go of the session.
      await sleep(20);
    }
    const goal = Math.round(best.alone * TARGET_SHARE);
    const rate = await messageRate(walker);
    return [
      { section: SECTION, subject: `${name}, bare Fastify route`, metric: METRIC, value: best.bare },
      { section: SECTION, subject: `${name}, no viewer (${share(best.alone, best.bare)} of bare)`, metric: METRIC, value: best.alone },
      {
        section: SECTION,
        subject: `${name}, one viewer on the event stream (${share(best.watched, best.alone)} of no viewer)`,
        metric: METRIC,
        value: best.watched,
        target: `>= ${goal.toLocaleString('en-US')} (90 % of no viewer)`,
        met: best.watched >= goal,
      },
      { section: SECTION, subject: `${name}, one viewer`, metric: 'messages/s the viewer got', value: rate, target: '<= 20', met: rate <= 20 },
    ];
  } finally {
    await walker.close();
  }
}

/**
 * Messages a second a viewer gets from a walk at full speed, over two seconds: messages less one over the
 * time from the first to the last, the spacing the coalescing promises.
 */
async function messageRate(walker: Host): Promise<number> {
  const viewer = await Viewer.open(walker.client.port, '/walker/view/session/events');
  await walker.client.loop(2000, '/walker');
  await sleep(60);
  viewer.close();
  const times = viewer.times.slice(1);
  const span = (times.at(-1) ?? 0) - (times[0] ?? 0);
  return span === 0 ? 0 : Math.round((10_000 * (times.length - 1)) / span) / 10;
}

function share(part: number, whole: number): string {
  return `${Math.round((100 * part) / whole)} %`;
}
