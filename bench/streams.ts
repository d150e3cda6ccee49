import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSection } from './report.js';
import { sampleModel } from './samples.js';
import { openStream, ringModel, rssMiB, statusOf, Stepper, type RawStream } from './stream-clients.js';

const SECTION = 'streams';
const STREAMS = 1000;
/** The model: 20,000 vertices and as many edges named in 300 characters, 14 MB. */
const LARGE = { vertices: 20_000, nameLength: 300 };
const READERS_ON_SMALL = 2000;
const STEPS_ON_SMALL = 200;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What the view's event streams cost the service (issue 21), on `walker online` as a process of its own:
 * 1,000 streams of the 20,000-vertex model that never read, then 1,000 that read, with the limits
 * raised to let them all in (its memory, and the slowest getNext of a client of another session meanwhile);
 * the same 1,000 asked of a service with the default limits; and 200 getNext of a small session that 2,000
 * readers watch, against the same alone (the issue measured 0.17 s against 2.8 to 7.9 s).
 */
export const benchStreams: BenchSection = async () => {
  const rows: BenchRow[] = [];
  const raised = await Service.start(['--max-view-streams', String(READERS_ON_SMALL), '--max-view-streams-per-session', String(READERS_ON_SMALL)]);
  try {
    const large = await raised.session(ringModel(LARGE.vertices, LARGE.nameLength), '');
    for (const reads of [false, true]) rows.push(...(await manyStreams(raised, large, reads)));
    rows.push(...(await watchedSteps(raised)));
  } finally {
    await raised.stop();
  }
  const defaults = await Service.start([]);
  try {
    const large = await defaults.session(ringModel(LARGE.vertices, LARGE.nameLength), '');
    const opened = await open(defaults, large, STREAMS, false);
    const served = (await Promise.all(opened.map((s) => s.head.then(statusOf, () => 0)))).filter((status) => status === 200).length;
    for (const stream of opened) stream.socket.destroy();
    rows.push({ section: SECTION, subject: `${STREAMS} streams asked of one session, default limits`, metric: 'streams served', value: served, target: '= 32 (--max-view-streams-per-session)', met: served === 32 });
  } finally {
    await defaults.stop();
  }
  return rows;
};

async function manyStreams(service: Service, session: string, reads: boolean): Promise<BenchRow[]> {
  const other = await service.session(sampleModel('Login.json'));
  const stepper = await Stepper.start(service.url, other);
  let peak = rssMiB(service.pid);
  const sampling = setInterval(() => (peak = Math.max(peak, rssMiB(service.pid))), 50);
  const streams = await open(service, session, STREAMS, reads);
  await Promise.all(streams.map((s) => s.head));
  for (let i = 0; i < 20; i++) await fetch(`${service.url}/walker/sessions/${session}/getNext`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const latencies = (await stepper.stop()).sort((a, b) => a - b);
  clearInterval(sampling);
  for (const stream of streams) stream.socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const subject = `20,000-vertex model (14 MB), ${STREAMS} streams that ${reads ? 'read' : 'never read'}`;
  const slowest = Math.round(latencies.at(-1) ?? 0);
  return [
    { section: SECTION, subject, metric: 'service RSS, peak (MiB)', value: Math.round(peak), target: '< 1,024', met: peak < 1024 },
    { section: SECTION, subject: `${subject}: another session's getNext`, metric: 'slowest (ms)', value: slowest, target: '< 250', met: slowest < 250 },
    { section: SECTION, subject: `${subject}: another session's getNext`, metric: 'p99 (ms)', value: Math.round(latencies[Math.floor(0.99 * (latencies.length - 1))]) },
  ];
}

/** 200 getNext of a small session, alone and with 2,000 readers of its stream: seconds each. */
async function watchedSteps(service: Service): Promise<BenchRow[]> {
  const session = await service.session(sampleModel('Login.json'));
  const steps = async (): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < STEPS_ON_SMALL; i++) await fetch(`${service.url}/walker/sessions/${session}/getNext`);
    return Math.round(performance.now() - started) / 1000;
  };
  const alone = await steps();
  const streams = await open(service, session, READERS_ON_SMALL, true);
  await Promise.all(streams.map((s) => s.head));
  const watched = await steps();
  for (const stream of streams) stream.socket.destroy();
  const subject = `Login.json, ${STEPS_ON_SMALL} getNext`;
  return [
    { section: SECTION, subject: `${subject}, nobody watching`, metric: 's', value: alone },
    { section: SECTION, subject: `${subject}, ${READERS_ON_SMALL} streams that read`, metric: 's', value: watched, target: '<= 3 x nobody watching', met: watched <= 3 * alone },
  ];
}

/** Opens `count` streams of a session, in bursts of 100 that each wait for their answers. */
async function open(service: Service, session: string, count: number, reads: boolean): Promise<RawStream[]> {
  const streams: RawStream[] = [];
  while (streams.length < count) {
    const burst = Array.from({ length: Math.min(100, count - streams.length) }, () => openStream(service.port, `/walker/view/sessions/${session}/events`, reads));
    await Promise.all(burst.map((s) => s.head.catch(() => '')));
    streams.push(...burst);
  }
  return streams;
}

/** `walker online` in a process of its own, so that its memory is its own. */
class Service {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(args: readonly string[]): Promise<Service> {
    const child = spawn(process.execPath, ['bin/walker.js', 'online', '-s', 'RESTFUL', '-p', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk) => {
        out += String(chunk);
        const listening = /Listening on (\S+)\n/.exec(out);
        if (listening !== null) resolve(listening[1]);
      });
      child.once('exit', (code) => reject(new Error(`walker online exited with ${code}: ${out}`)));
    });
    return new Service(child, url);
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** A new session walking `model` forever (`random(never)` unless `query` is ''); its id. */
  async session(model: string, query = '?generator=random(never)'): Promise<string> {
    const response = await fetch(`${this.url}/walker/sessions${query}`, { method: 'POST', body: model });
    if (response.status !== 201) throw new Error(`session not created: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
