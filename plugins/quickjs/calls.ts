import { Lifetime, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';

/**
 * Calls a compiled guest function with no arguments and reads its numeric result: the one operation on the
 * hot path (every guard set and every action of a walk). The result is the number, or the handle of an
 * exception that escaped the guest (the caller disposes it).
 */
export interface GuestCaller {
  number(fn: QuickJSHandle): number | QuickJSHandle;
}

/** The four FFI functions the fast path needs; pointers are plain numbers at run time. */
interface RawFfi {
  QTS_Call(ctx: number, fn: number, thisValue: number, argc: number, argv: number): number;
  QTS_ResolveException(ctx: number, value: number): number;
  QTS_GetFloat64(ctx: number, value: number): number;
  QTS_FreeValuePointer(ctx: number, value: number): void;
}

/** A module that may expose its FFI (QuickJSWASMModule and TestQuickJSWASMModule both do). */
export interface FfiSource {
  getFFI?(): unknown;
}

/**
 * The public path: `callFunction` allocates an argument array, two Lifetimes and a result object per call,
 * which costs as much as a small call itself.
 */
export function publicCaller(context: QuickJSContext): GuestCaller {
  return {
    number(fn) {
      const result = context.callFunction(fn, context.undefined);
      if (result.error) return result.error;
      const n = context.getNumber(result.value);
      result.value.dispose();
      return n;
    },
  };
}

/**
 * The fast path: the same C calls `callFunction` makes, without the bookkeeping, which makes a call three
 * to five times cheaper. It needs the context pointer, which quickjs-emscripten keeps in a protected field,
 * so it is only used after {@link selfTest} proved it works with the installed version; otherwise the
 * public path is used.
 */
export function fastCaller(
  module: FfiSource,
  context: QuickJSContext,
  runtime: QuickJSRuntime,
  probe: QuickJSHandle,
): GuestCaller | undefined {
  const ffi = module.getFFI?.() as Partial<RawFfi> | undefined;
  const ctx = (context as unknown as { ctx?: { value?: unknown } }).ctx?.value;
  if (!ffi || typeof ctx !== 'number' || !hasRawFunctions(ffi)) return undefined;
  const raw = ffi;
  const undefinedPointer = context.undefined.value as unknown as number;
  const free = (pointer: number): void => raw.QTS_FreeValuePointer(ctx, pointer);
  const caller: GuestCaller = {
    number(fn) {
      const result = raw.QTS_Call(ctx, fn.value as unknown as number, undefinedPointer, 0, 0);
      const error = raw.QTS_ResolveException(ctx, result);
      if (error !== 0) {
        free(result);
        return new Lifetime(error, undefined, free, runtime) as unknown as QuickJSHandle;
      }
      const n = raw.QTS_GetFloat64(ctx, result);
      free(result);
      return n;
    },
  };
  return selfTest(caller, probe) ? caller : undefined;
}

function hasRawFunctions(ffi: Partial<RawFfi>): ffi is RawFfi {
  return (['QTS_Call', 'QTS_ResolveException', 'QTS_GetFloat64', 'QTS_FreeValuePointer'] as const).every(
    (name) => typeof ffi[name] === 'function',
  );
}

/** `probe` is a guest function returning 42; anything else means the internals are not what we expect. */
function selfTest(caller: GuestCaller, probe: QuickJSHandle): boolean {
  const result = caller.number(probe);
  if (typeof result === 'number') return result === 42;
  result.dispose();
  return false;
}
