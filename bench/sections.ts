import type { BenchSection } from './report.js';
import { benchEngine } from './engine.js';
import { benchService } from './service.js';
import { benchDrafts } from './drafts.js';
import { benchSessions } from './sessions.js';
import { benchPlanning } from './planning.js';
import { benchView } from './view.js';
import { benchStreams } from './streams.js';
import { benchEditor } from './editor.js';
import { benchRunner } from './runner.js';
import { benchStartup } from './startup.js';

/** Every benchmark section, in the order they run and print; `npm run bench -- <name>` picks some. */
export const sections: Record<string, BenchSection> = {
  engine: benchEngine,
  service: benchService,
  drafts: benchDrafts,
  sessions: benchSessions,
  planning: benchPlanning,
  view: benchView,
  streams: benchStreams,
  editor: benchEditor,
  runner: benchRunner,
  startup: benchStartup,
};
