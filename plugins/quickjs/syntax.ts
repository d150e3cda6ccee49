import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import type { ScriptSyntaxError } from '../../core/scripting.js';
import { isBlank } from './compile.js';
import { sourceColumn, splitGlobal } from './shared-scope.js';
import { MemoryGate } from './memory.js';
import { cut, formatBytes } from './messages.js';
import type { ModuleSource } from './modules.js';
import type { QuickJsModule } from './runtime.js';

const COMPILE_ONLY = { type: 'global', compileOnly: true } as const;
/** QuickJS's position of an error: `at <file>:<line>:<column>`, the column counted in characters. */
const POSITION = /:(\d+):(\d+)\s*$/m;

/**
 * The engine's `checkSyntax`: compiles a guard or action without running it, in a runtime and context of its
 * own in the engine's sample module (the pool's current overflow). A load checks all its scripts in one synchronous run, so the runtime is
 * made at the first check and disposed in the microtask after it: one runtime per load, and
 * none held between loads. Nothing ever runs there and every compiled function is dropped at once, so no
 * check can see what another left behind. The sandboxes' stack limit applies (see runtime.ts: the parser
 * recurses on the host's stack), and the memory may grow by the walk's memory limit at most per check. Parsing cannot loop, so there is no time limit: it
 * is linear in the script's length. Should the host's stack overflow anyway, the runtime is abandoned, not
 * disposed (that would abort the module), and a new one is made for the next check.
 *
 * Guards and actions are both parsed as global scripts: the sandbox evaluates a guard that is no plain
 * expression as a script (compile.ts), as GraphWalker's engine evaluates every guard, so a guard parses when
 * it parses as a script.
 */
export class SyntaxChecker {
  private runtime: QuickJSRuntime | undefined;
  private context: QuickJSContext | undefined;
  /** The memory gate of the module the open runtime lives in. */
  private gate: MemoryGate | undefined;

  constructor(
    /** Read at each load, not kept: the pool retires a sample (its overflow) whose memory grew. */
    private readonly modules: Pick<ModuleSource, 'sample'>,
    private readonly maxStackBytes: number,
    private readonly memoryBytes: number,
  ) {}

  /** Guards and actions alike: see the class comment. */
  check(source: string): ScriptSyntaxError | undefined {
    const { code } = splitGlobal(source);
    if (isBlank(code)) return undefined;
    const [context, gate] = this.open();
    gate.limitBytes = gate.memory.buffer.byteLength + this.memoryBytes;
    gate.refused = false;
    let result: ReturnType<QuickJSContext['evalCode']>;
    try {
      result = context.evalCode(code, 'script', COMPILE_ONLY);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      this.runtime = this.context = this.gate = undefined;
      return { message: 'The script nests too deeply to be parsed', line: 1, column: 1 };
    }
    if (!result.error) {
      result.value.dispose();
      return undefined;
    }
    const found = this.describe(context, gate, result.error, source);
    result.error.dispose();
    return found;
  }

  private open(): [QuickJSContext, MemoryGate] {
    if (this.context !== undefined && this.gate !== undefined) return [this.context, this.gate];
    const module: QuickJsModule = this.modules.sample;
    const runtime = module.newRuntime();
    runtime.setMaxStackSize(this.maxStackBytes);
    const context = runtime.newContext();
    const gate = MemoryGate.of(module.getWasmMemory());
    [this.runtime, this.context, this.gate] = [runtime, context, gate];
    queueMicrotask(() => this.close(runtime, context));
    return [context, gate];
  }

  /** Disposes the runtime of the checks just made, unless a host stack overflow made it unusable (abandoned). */
  private close(runtime: QuickJSRuntime, context: QuickJSContext): void {
    if (this.runtime !== runtime) return;
    context.dispose();
    runtime.dispose();
    // The gate holds the module's WebAssembly memory: kept, it would keep a retired module's 16 MiB alive.
    this.runtime = this.context = this.gate = undefined;
  }

  /** The engine's message and the position in `source`, read from the error QuickJS made (no model code runs). */
  private describe(context: QuickJSContext, gate: MemoryGate, error: QuickJSHandle, source: string): ScriptSyntaxError {
    if (gate.refused) {
      const message = `The script is too large to parse within ${formatBytes(this.memoryBytes)}`;
      return { message, line: 1, column: 1 };
    }
    const dumped = context.dump(error) as { name?: unknown; message?: unknown; stack?: unknown } | undefined;
    const name = typeof dumped?.name === 'string' ? dumped.name : 'Error';
    const text = typeof dumped?.message === 'string' ? dumped.message : String(dumped);
    const at = typeof dumped?.stack === 'string' ? POSITION.exec(dumped.stack) : null;
    const line = at === null ? 1 : Number(at[1]);
    const column = at === null ? 1 : sourceColumn(source, line, Number(at[2]));
    return { message: cut(`${name}: ${text}`), line, column };
  }
}
