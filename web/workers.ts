import type { WorkerSource } from './elk-layout.js';

/** The `<script type="text/plain">` that carries ELK's worker inside a report (server/view/report-page.ts). */
const INLINE_WORKER_ID = 'walker-layout-worker';

/** The service's page: ELK's worker is one of its assets, fetched once and cached by the browser. */
export const servedWorker: WorkerSource = () => new Worker('assets/elk-worker.js');

/**
 * A report: ELK's worker is inline, made into a blob URL (the report's policy allows workers from blobs
 * only), so that the report lays its models out from a file with no network. A report whose every model is
 * placed by its file carries no worker and never asks for one.
 */
export function inlineWorker(): WorkerSource {
  let url: string | undefined;
  return () => {
    if (url === undefined) {
      const source = document.getElementById(INLINE_WORKER_ID)?.textContent;
      if (source === undefined || source === null) throw new Error('This report carries no layout worker, so its models cannot be laid out.');
      url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    }
    return new Worker(url);
  };
}
