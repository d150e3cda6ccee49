/**
 * The entry of the service's conversion thread (conversion-thread.ts starts it): it loads the plugins the
 * service loaded, from the same modules, and does one conversion at a time, as the event loop would have
 * done it (model-conversion.ts), so a user's format converts here as it does there.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Registries } from '../../core/plugin.js';
import { thrownData } from '../sessions/thrown-data.js';
import { threadRegistries } from '../thread-plugins.js';
import type { ConversionJob, ConversionReady, ConversionReply, ConversionRequest, ConversionSetup } from './conversion-protocol.js';
import { convertFile, graphmlAsJson, writeModel } from './model-conversion.js';

const port = parentPort;
if (port === null) throw new Error('conversion-worker.js runs as a worker thread only (server/conversion/conversion-thread.ts).');

const setup = workerData as ConversionSetup;

function run(registries: Registries, job: ConversionJob): unknown {
  switch (job.op) {
    case 'convertFile':
      return convertFile(registries, job.conversion);
    case 'graphmlAsJson':
      return graphmlAsJson(registries, job.text);
    case 'writeModel':
      return writeModel(registries, job.format, job.model);
  }
}

// At the process's priority, as every thread of it: a thread of lower priority may hold a lock the event loop
// waits for (server/sessions/walk-pace.ts says which), and a conversion is one task, bounded by the size limits.

try {
  const registries = await threadRegistries(setup.plugins);
  port.on('message', ({ id, job }: ConversionRequest) => {
    let reply: ConversionReply;
    try {
      reply = { id, value: run(registries, job) };
    } catch (error) {
      reply = { id, error: thrownData(error) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies ConversionReady);
} catch (error) {
  port.postMessage({ ready: false, error: thrownData(error) } satisfies ConversionReady);
}
