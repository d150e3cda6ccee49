import ELK, { type ElkExtendedEdge, type ElkLabel, type ElkNode, type LayoutOptions } from 'elkjs/lib/elk-api.js';
import type { EdgeShape, ModelShape } from '../server/view/messages.js';
import { edgeLabelWidth, START_DOT, VERTEX_HEIGHT, vertexWidth } from './geometry.js';
import { loopRoom, loopsByVertex } from './loops.js';

/** Makes the worker ELK runs in: the page's `assets/elk-worker.js`, or a report's copy of it inline. */
export type WorkerSource = () => Worker;

/**
 * A model of more elements than this is laid out with ELK's cheap options: its label placement and its
 * thorough crossing minimisation take most of the time, and on a model that size they no longer make the
 * drawing clearer, only far larger (docs/benchmarks.md, "Measurements behind the code").
 */
export const CHEAP_LAYOUT_ABOVE = 300;

const COMMON: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.edgeRouting': 'POLYLINE',
  'elk.spacing.nodeNode': '40',
  'elk.layered.spacing.nodeNodeBetweenLayers': '50',
};

const THOROUGH: LayoutOptions = { ...COMMON, 'elk.edgeLabels.placement': 'CENTER' };

const CHEAP: LayoutOptions = {
  ...COMMON,
  'elk.layered.thoroughness': '1',
  'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
};

/** The ELK id of the dot and the edge that mark a start vertex. */
export const START_MARK = 'start';

/** A layout that was given up because a newer graph came before it was done. */
export class LayoutSuperseded extends Error {
  constructor() {
    super('A newer graph came: this layout was given up.');
  }
}

/** ELK's answer for one model: boxes by ELK id, and the edges as ELK routed them. */
export type ElkResult = ElkNode;

/**
 * Runs ELK's layered layout in a worker, one model at a time, so that the page's main thread stays free for
 * input and for the walk's updates however long a layout takes. The worker is made on the first layout and
 * kept for the next ones; {@link cancel} ends a layout in flight, and the next layout starts a new worker.
 */
export class ElkRunner {
  private elk: InstanceType<typeof ELK> | undefined;
  private failed: ((error: Error) => void) | undefined;

  constructor(private readonly makeWorker: WorkerSource) {}

  /** Lays one model out; rejects with {@link LayoutSuperseded} when cancelled, or with why the worker failed. */
  layout(model: ModelShape): Promise<ElkResult> {
    return new Promise<ElkResult>((resolve, reject) => {
      this.failed = reject;
      this.instance()
        .layout(elkGraph(model))
        .then(resolve, (error: unknown) => reject(new Error(`ELK could not lay out the model '${model.name ?? model.id}': ${describe(error)}`)))
        .finally(() => {
          if (this.failed === reject) this.failed = undefined;
        });
    });
  }

  /**
   * Stops the layout in flight, if any: its promise rejects with {@link LayoutSuperseded}. An idle worker is
   * kept, since starting one reads ELK's script anew (a draft redrawn at every edit would pay it each time).
   */
  cancel(): void {
    if (this.failed !== undefined) this.stop(new LayoutSuperseded());
  }

  private instance(): InstanceType<typeof ELK> {
    if (this.elk !== undefined) return this.elk;
    this.elk = new ELK({
      workerFactory: () => {
        const worker = this.makeWorker();
        // ELK's own wrapper does not listen for a worker that fails to load or dies: without this the layout would wait forever.
        worker.addEventListener('error', (event) => {
          event.preventDefault();
          this.stop(new Error(`The layout worker failed: ${event.message || 'its script did not load'}`));
        });
        return worker;
      },
    });
    return this.elk;
  }

  private stop(reason: Error): void {
    const failed = this.failed;
    this.failed = undefined;
    this.elk?.terminateWorker();
    this.elk = undefined;
    failed?.(reason);
  }
}

/**
 * The model as ELK's input: its vertices, a dot for each start edge without a source, and its edges between
 * them, with labels sized for the page's font (left out of a large model's layout). Loops are left out: ELK
 * stacks a vertex's loops on one side into one shape, so the page draws them itself (web/loops.ts), in the
 * room ELK leaves beside a vertex for its outside labels, which stand in for the loops.
 */
export function elkGraph(model: ModelShape): ElkNode {
  const inModel = new Set(model.vertices.map((v) => v.index));
  const drawn = model.edges.filter((e) => inModel.has(e.target) && e.source !== e.target);
  const loops = loopsByVertex(model.edges);
  const cheap = model.vertices.length + model.edges.length > CHEAP_LAYOUT_ABOVE;
  const children: ElkNode[] = model.vertices.map((v) => ({
    id: `v${v.index}`,
    width: vertexWidth(v),
    height: VERTEX_HEIGHT,
    labels: loopLabels(loops.get(v.index) ?? []),
  }));
  for (const e of drawn) if (!inModel.has(e.source)) children.push({ id: `s${e.index}`, width: START_DOT, height: START_DOT });
  // A start vertex gets the dot and arrow of a start edge, laid out like one.
  const startMark: ElkExtendedEdge[] = inModel.has(model.startElement) ? [{ id: START_MARK, sources: [START_MARK], targets: [`v${model.startElement}`] }] : [];
  if (startMark.length > 0) children.push({ id: START_MARK, width: START_DOT, height: START_DOT });
  const edges: ElkExtendedEdge[] = drawn.map((e) => ({
    id: `e${e.index}`,
    sources: [inModel.has(e.source) ? `v${e.source}` : `s${e.index}`],
    targets: [`v${e.target}`],
    labels: cheap || e.name === '' ? [] : [{ text: e.name, width: edgeLabelWidth(e.name), height: 14 }],
  }));
  return { id: 'model', layoutOptions: cheap ? CHEAP : THOROUGH, children, edges: [...edges, ...startMark] };
}

/** Labels outside a vertex, left and right, as wide and tall as its loops and their names: room ELK keeps free. */
function loopLabels(loops: readonly EdgeShape[]): ElkLabel[] {
  if (loops.length === 0) return [];
  const room = loopRoom(loops);
  // ELK leaves a label without text where it is, and keeps no room for it: each is named after the loops it stands in for.
  const text = loops.map((loop) => loop.name || loop.id).join(', ');
  const side = (width: number, where: string): ElkLabel => ({ text, width, height: room.height, layoutOptions: { 'elk.nodeLabels.placement': `OUTSIDE V_CENTER ${where}` } });
  return [side(room.right, 'H_RIGHT'), ...(room.left > 0 ? [side(room.left, 'H_LEFT')] : [])];
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}
