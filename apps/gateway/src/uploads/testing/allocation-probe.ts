import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Records the largest Buffer this process allocates while it runs: Buffer.alloc, allocUnsafe and allocUnsafeSlow,
// and so Buffer.concat and every stream that collects chunks through them (busboy, the minio client, sharp's
// stream input, stream/consumers), whoever the caller.

type Allocator = (size: number, ...rest: unknown[]) => Buffer;
const NAMES = ['alloc', 'allocUnsafe', 'allocUnsafeSlow'] as const;

export interface AllocationProbe {
  /** The size of the largest Buffer allocated since the probe started, with where it was allocated. */
  largest(): { size: number; stack: string };
  /** Puts the real allocators back. */
  stop(): void;
}

/** Wraps the Buffer allocators until stop(); only allocations of at least `reportFrom` bytes keep their stack. */
export function watchBufferAllocations(reportFrom = 256 * 1024): AllocationProbe {
  const originals = new Map<string, Allocator>();
  let largest = { size: 0, stack: '' };
  const allocators = Buffer as unknown as Record<string, Allocator>;
  for (const name of NAMES) {
    const original = allocators[name];
    originals.set(name, original);
    allocators[name] = function probed(this: unknown, size: number, ...rest: unknown[]) {
      if (size > largest.size) largest = { size, stack: size >= reportFrom ? (new Error().stack ?? '') : '' };
      return original.call(this, size, ...rest);
    };
  }
  return {
    largest: () => largest,
    stop: () => {
      for (const [name, original] of originals) allocators[name] = original;
    },
  };
}

export interface LiveMemorySampler {
  /** The most live ArrayBuffer memory (Buffers included) seen above the level at start, after a full GC. */
  peakGrowth(): number;
  stop(): void;
}

let collect: (() => void) | undefined;
/**
 * Live ArrayBuffer memory: after a full garbage collection, twice, since V8 frees the backing stores of dead
 * buffers on a background thread and the first reading can still count some of them.
 */
function liveArrayBuffers(): number {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  collect();
  return process.memoryUsage().arrayBuffers;
}

/**
 * Every `intervalMs` or so, reads the live ArrayBuffer memory (process.memoryUsage().arrayBuffers after a full GC):
 * whatever buffers a file, through the Buffer API or natively (Blob, stream/consumers, a native addon's result),
 * shows up while it is held. The pause between samples is at least twice the last collection's length, so a busy
 * machine's slow collections never take more than a third of the time.
 */
export function sampleLiveArrayBuffers(intervalMs = 100): LiveMemorySampler {
  const start = liveArrayBuffers();
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const sample = () => {
    const began = Date.now();
    peak = Math.max(peak, liveArrayBuffers() - start);
    return Date.now() - began;
  };
  const schedule = (lastGcMs: number) => {
    timer = setTimeout(() => {
      if (!stopped) schedule(sample());
    }, Math.max(intervalMs, 2 * lastGcMs));
  };
  schedule(0);
  return {
    peakGrowth: () => peak,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      sample();
    },
  };
}

export interface RssSampler {
  /** The most resident memory (process.memoryUsage.rss) seen above the level at start. */
  peakGrowth(): number;
  stop(): void;
}

/**
 * Reads the process's resident set size every `intervalMs`: unlike ArrayBuffer counts it includes native memory,
 * such as the pixels libvips decodes (ADR 0029). No collection is forced, so a sample costs microseconds.
 */
export function sampleRss(intervalMs = 20): RssSampler {
  const start = process.memoryUsage.rss();
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss() - start);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    peakGrowth: () => peak,
    stop: () => {
      clearInterval(timer);
      sample();
    },
  };
}
