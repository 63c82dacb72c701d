import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { Socket } from "node:net";

/** The part of node's `tcp_wrap` binding used here (a libuv stream that can be opened on an fd). */
interface TcpBinding {
  TCP: new (type: number) => unknown & { open(fd: number): number };
  constants: { SOCKET: number };
}

/**
 * Calls `onGone` as soon as the reader of stdout goes away (`spellrun bulk … -o - | head -1`
 * once `head` has its line), even when nothing is being written: without it a closed pipe is
 * noticed only at the next write (EPIPE), and a job keeps starting paid runs until then.
 *
 * How: the kernel reports an error (EPOLLERR) on the write end of a pipe once its last reader
 * has closed, but libuv polls stdout only while a write waits. A second write end of the same
 * pipe is opened (`/proc/self/fd/1`, which adds no reader) and polled for reading: the only
 * event a write end can get is that error, and the read it triggers fails at once (EBADF). The
 * stream is a `tcp_wrap` handle because a `Pipe` handle refuses to read from a write-only fd;
 * that binding is node's own (`process.binding`, documented as deprecated but kept): where it
 * or `/proc` is missing, or stdout is no pipe or FIFO (a terminal, a file, a socket), nothing is
 * watched and a closed output is noticed at the next write, as before.
 *
 * A reader gone before the job starts (`| true`, a reader that failed) is told once the event
 * loop has polled: `ready` resolves after that, so a job awaits it before its first start.
 *
 * ## Example
 * ```ts
 * const watch = watchOutputReader(() => void runner.cancel());
 * await watch.ready;
 * try { await runner.run(); } finally { watch.dispose(); }
 * ```
 * @param onGone called once, when the reader has gone
 * @return `ready`, and `dispose`, which stops watching (the process can then exit)
 */
export function watchOutputReader(onGone: () => void): OutputReaderWatch {
  const none = { ready: Promise.resolve(), dispose: () => undefined };
  let fd: number;
  try {
    if (!fstatSync(1).isFIFO()) return none;
    // Non-blocking: a FIFO whose reader is already gone refuses the open (ENXIO), said below.
    fd = openSync("/proc/self/fd/1", constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENXIO") {
      queueMicrotask(onGone);
    }
    return none;
  }
  let watcher: Socket;
  try {
    // Not in @types/node (deprecated there), still in node 20-24.
    const { binding } = process as unknown as { binding(name: string): TcpBinding };
    const { TCP, constants: tcp } = binding.call(process, "tcp_wrap");
    const handle = new TCP(tcp.SOCKET);
    if (handle.open(fd) !== 0) throw new Error("cannot watch stdout");
    watcher = new Socket({ handle, readable: true, writable: false } as never);
  } catch {
    closeSync(fd);
    return none;
  }
  let done = false;
  const gone = (): void => {
    if (done) return;
    done = true;
    watcher.destroy();
    onGone();
  };
  // EBADF (the read after the error event) or an end: either way the reader is gone.
  watcher.on("error", gone);
  watcher.on("end", gone);
  watcher.on("data", () => undefined);
  // The watch never keeps the process alive by itself.
  watcher.unref();
  return {
    // A poll phase (which reports the error event) lies between two turns of the check phase.
    ready: new Promise((resolve) => setImmediate(() => setImmediate(resolve))),
    dispose: () => {
      done = true;
      watcher.destroy();
    },
  };
}

/**
 * A watch of stdout's reader (see `watchOutputReader`).
 *
 * ## Example
 * ```ts
 * const watch: OutputReaderWatch = watchOutputReader(onGone);
 * ```
 */
export interface OutputReaderWatch {
  /** Resolves once a reader that was already gone has been told. */
  ready: Promise<void>;
  /** Stops watching. */
  dispose(): void;
}
