import { formatOf } from '../../core/model/formats.js';
import type { ModelFileJson } from '../../core/model/types.js';
import type { Registries } from '../../core/plugin.js';
import { apiError } from '../api-error.js';
import { DEFAULT_CONVERSION_LIMITS, type ConversionLimits } from '../options.js';
import type { ConversionAnswers, ConversionJob, ConversionSetup } from './conversion-protocol.js';
import { isLargeConversion, isLargeWrite } from './conversion-placement.js';
import { ConversionLimitError, ConversionThread, ConversionThreadError } from './conversion-thread.js';
import { convertFile, graphmlAsJson, writeModel, type FileConversion, type FileConversionOutcome } from './model-conversion.js';

/** Large conversions the thread holds at once, the one under way included; more are refused with 503. */
export const MAX_THREAD_CONVERSIONS = 8;

export interface ConversionsOptions {
  readonly registries: Registries;
  /** What the thread loads; undefined when a user's plugin has no source to load it from, and all runs on the loop. */
  readonly thread: ConversionSetup | undefined;
  /** Told what happened, for the log. */
  readonly note: (level: 'info' | 'warn', message: string) => void;
  readonly maxThreadConversions?: number;
  /** What one conversion may take of the thread. Default {@link DEFAULT_CONVERSION_LIMITS}. */
  readonly limits?: ConversionLimits;
}

/**
 * The conversions of model files that requests without a session ask for: the drafts' convert and export and
 * the WebSocket's `convertGraphml`. A small one runs on the event loop at once; a large one
 * (conversion-placement.ts) in the app's one conversion thread, so that it holds no other client. Both answer
 * the same, failures included: the same work (model-conversion.ts) runs in both places.
 */
export class Conversions {
  private thread: ConversionThread | undefined;
  /** Why the thread could not start: it is not tried again, and every conversion runs on the loop. */
  private unavailable = false;
  /** What a large conversion answers once the service closed. */
  private closed: Error | undefined;
  private readonly max: number;

  constructor(private readonly options: ConversionsOptions) {
    this.max = options.maxThreadConversions ?? MAX_THREAD_CONVERSIONS;
  }

  /** `POST /walker/drafts/convert`'s work; the format to write in must be one that writes. */
  convertFile(conversion: FileConversion): Promise<FileConversionOutcome> {
    const { registries } = this.options;
    let large: boolean;
    try {
      large = isLargeConversion(conversion.text, formatOf(conversion.text, registries.formats, conversion.fileName).name, conversion.format);
    } catch {
      // No format reads the text by its name: the loop refuses it at once.
      large = false;
    }
    return this.place(large, { op: 'convertFile', conversion }, () => convertFile(registries, conversion));
  }

  /** The WebSocket's `convertGraphml`: the GraphML document's models as JSON text. */
  graphmlAsJson(text: string): Promise<string> {
    return this.place(isLargeConversion(text, 'graphml'), { op: 'graphmlAsJson', text }, () => graphmlAsJson(this.options.registries, text));
  }

  /** `model`, of `elements` vertices and edges, written in `format` (one that writes). */
  writeModel(format: string, model: ModelFileJson, elements: number): Promise<string> {
    return this.place(isLargeWrite(format, elements), { op: 'writeModel', format, model }, () => writeModel(this.options.registries, format, model));
  }

  /** Stops the thread: the conversions it holds, and any large one asked later, fail with `error`. */
  async close(error: Error): Promise<void> {
    this.closed ??= error;
    await this.thread?.close(error);
  }

  private async place<J extends ConversionJob>(large: boolean, job: J, onLoop: () => ConversionAnswers[J['op']]): Promise<ConversionAnswers[J['op']]> {
    const setup = this.options.thread;
    if (!large || setup === undefined || this.unavailable) return onLoop();
    if (this.closed !== undefined) throw this.closed;
    this.thread ??= new ConversionThread(setup, this.options.limits ?? DEFAULT_CONVERSION_LIMITS, () =>
      this.options.note('info', 'The conversion thread started: large model conversions run there, off the event loop.'),
    );
    if (this.thread.size >= this.max) {
      throw apiError(
        'conversions_busy',
        `${this.thread.size} large model conversions are waiting or under way, as many as the service takes at once; ask again once one has been answered.`,
      );
    }
    try {
      return await this.thread.run(job);
    } catch (error) {
      if (error instanceof ConversionLimitError) throw apiError('conversion_limit_reached', error.message);
      if (!(error instanceof ConversionThreadError)) throw error;
      this.unavailable = true;
      this.options.note('warn', `${error.message}; model conversions run on the event loop from now on.`);
      return onLoop();
    }
  }
}
