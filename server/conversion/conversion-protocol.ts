import type { ModelFileJson } from '../../core/model/types.js';
import type { PluginSource, ThrownData } from '../sessions/worker-protocol.js';
import type { FileConversion, FileConversionOutcome } from './model-conversion.js';

/** The messages between the service and its conversion thread (conversion-worker.ts): plain data only. */

/** What the conversion thread is started with (its `workerData`). */
export interface ConversionSetup {
  /** The user's plugins, loaded after the built-in ones, in this order. */
  readonly plugins: readonly PluginSource[];
}

/** One conversion, by the function of model-conversion.ts that does it, and what that function answers. */
export type ConversionJob =
  | { readonly op: 'convertFile'; readonly conversion: FileConversion }
  | { readonly op: 'graphmlAsJson'; readonly text: string }
  | { readonly op: 'writeModel'; readonly format: string; readonly model: ModelFileJson };

export interface ConversionAnswers {
  readonly convertFile: FileConversionOutcome;
  readonly graphmlAsJson: string;
  readonly writeModel: string;
}

export interface ConversionRequest {
  readonly id: number;
  readonly job: ConversionJob;
}

export type ConversionReply =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly error: ThrownData };

/** The thread's first message: ready, or why its plugins could not be loaded. */
export type ConversionReady = { readonly ready: true } | { readonly ready: false; readonly error: ThrownData };
