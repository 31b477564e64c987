"""A reader's kernel in the app (``python -m wbk.appkernel --memory BYTES -f CONNECTION_FILE``,
the kernel the app's chapters name): IPython's kernel, with what a stranger's page may send it
bounded, on the model of Jupyter Server's own checks (``wbk.appserver`` is the server's side).

- **Its memory is bounded by the operating system.** The kernel's writable memory (its data
  segment: what ``RLIMIT_DATA`` counts, the heap, every thread's stack and numpy's arrays) may
  not pass ``--memory``: an allocation past it fails. A kernel that runs out of memory says so
  in one line of the server's log and stops with ``OUT_OF_MEMORY``, alone (no restart: the app
  tells its page, ``wbk.appserver``); the machine and the other readers' kernels go on.
- **A page opens no widget.** The chapter makes every widget; a page only asks for their
  state (the widgets' control comm, ``jupyter.widget.control``) and changes them. ipywidgets
  would otherwise build any widget class a page names in a ``comm_open`` to ``jupyter.widget``,
  holding whatever it sends.
- **Nothing of the server reaches a page.** Tracebacks, warnings and the kernel's log go to the
  server's log, never on the kernel's messages (ipykernel would forward its process's own
  output to every page); a page is told of an error in one line, without paths or versions,
  and the kernel's description of itself names no version.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import sys
import threading
import time
import traceback

#: The exit status of a reader's kernel that ran out of its memory.
OUT_OF_MEMORY = 75
#: The only comm a page may open: the widgets' control comm, through which the page asks for
#: every widget's state once it has loaded.
PAGE_COMMS = frozenset({"jupyter.widget.control"})
#: What a page is told of an error in its kernel (the server's log has the rest).
ERROR_LINE = "the panel's kernel hit an error; the server's log has the details"
#: The stack of each thread the kernel starts (ipykernel's own: each waits on a socket). Eight
#: MB each by default, which the memory limit counts, touched or not.
THREAD_STACK = 1 * 2**20


class OnceAWhile(logging.Filter):
    """Lets through the first ``burst`` records of each kind (logger and message) in every
    ``seconds``; the rest are counted and said in one line when the next is let through, so
    that a flood of the same event costs the log a line a while, not a line an attempt."""

    def __init__(self, seconds: float = 60, burst: int = 5):
        super().__init__()
        self.seconds, self.burst = seconds, burst
        self._seen: dict[tuple[str, str], list] = {}  # kind -> [window start, shown, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg))
        now = time.monotonic()
        if len(self._seen) > 1000:  # kinds made of what a stranger sent: forget them
            self._seen.clear()
        window = self._seen.setdefault(kind, [now, 0, 0])
        if now - window[0] >= self.seconds:
            if window[2]:
                record.msg = f"{record.msg} (and {window[2]:,} more like it before)"
            window[:] = [now, 0, 0]
        if window[1] >= self.burst:
            window[2] += 1
            return False
        window[1] += 1
        return True


def out_of_memory(where: str) -> None:
    """Stop the kernel, saying why in one line of the server's log: an allocation failed at the
    memory limit (what holds the memory may be anywhere in the kernel, and any next step may
    fail the same way)."""
    line = f"wbk: a reader's kernel (pid {os.getpid()}) ran out of its memory ({where}): stopped\n"
    os.write(2, line.encode())
    os._exit(OUT_OF_MEMORY)


class _ServerLog(logging.Handler):
    """Every log record of the kernel, to the server's log (the kernel's own standard error,
    which is the server's), throttled; a record of a ``MemoryError`` stops the kernel."""

    def __init__(self):
        super().__init__()
        self.setFormatter(logging.Formatter("[kernel %(process)d %(levelname)s] %(message)s"))
        self.addFilter(OnceAWhile())
        self._stream = sys.__stderr__

    def handle(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], MemoryError):
            out_of_memory(record.getMessage())
        return super().handle(record)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            os.write(2, (self.format(record) + "\n").encode(errors="replace"))
        except OSError:
            pass


def _one_log_for_everything() -> None:
    """The kernel's loggers (IPython's, ipykernel's, comm's, warnings) all through
    ``_ServerLog``. Python's last-resort handler would write to ``sys.stderr``, which in a
    kernel is a stream to every page."""
    root = logging.getLogger()
    root.handlers[:] = [_ServerLog()]
    root.setLevel(logging.WARNING)
    logging.captureWarnings(True)


def _thread_died(args: threading.ExceptHookArgs) -> None:
    if isinstance(args.exc_value, MemoryError):
        out_of_memory(f"in thread {args.thread.name if args.thread else '?'}")
    logging.getLogger("wbk.appkernel").error(
        "an exception in a thread of the kernel",
        exc_info=args.exc_value,
    )


def _kernel_classes():
    """The kernel app, kernel and shell classes (ipykernel imported only when the kernel
    starts: after the memory limit is set, and never by the server)."""
    from ipykernel.ipkernel import IPythonKernel
    from ipykernel.kernelapp import IPKernelApp
    from ipykernel.zmqshell import ZMQInteractiveShell

    class ReaderShell(ZMQInteractiveShell):
        """IPython's shell, whose tracebacks go to the server's log; the page gets one line."""

        def showtraceback(self, exc_tuple=None, *args, **kwargs):
            try:
                kind, error, trace = self._get_exc_info(exc_tuple)
            except ValueError:  # no exception to show
                return
            if isinstance(error, MemoryError):
                out_of_memory(f"{kind.__name__} in the shell")
            logging.getLogger("wbk.appkernel").error(
                "%s", "".join(traceback.format_exception(kind, error, trace)).rstrip()
            )
            self._showtraceback(kind, ERROR_LINE, [f"{kind.__name__}: {ERROR_LINE}"])

    class ReaderKernel(IPythonKernel):
        """IPython's kernel, which opens only the comms of ``PAGE_COMMS`` for a page and says
        nothing of its versions."""

        shell_class = ReaderShell
        implementation_version = ""
        banner = ""

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.help_links = []
            self.language_info = {**IPythonKernel.language_info, "version": ""}
            self._open_comm = self.shell_handlers["comm_open"]
            self.shell_handlers["comm_open"] = self._open_page_comm

        def _open_page_comm(self, stream, ident, msg):
            target = msg.get("content", {}).get("target_name")
            if target not in PAGE_COMMS:
                self.log.warning("refused a page's comm_open to %r", str(target)[:80])
                return None
            return self._open_comm(stream, ident, msg)

    class ReaderKernelApp(IPKernelApp):
        """ipykernel's app with ``ReaderKernel``, its log to the server's, its process's own
        output (a C library's, say) not forwarded to the pages."""

        kernel_class = ReaderKernel
        capture_fd_output = False

        def initialize(self, argv=None):
            super().initialize(argv)
            self.log.handlers.clear()  # through the root logger's one handler
            self.log.propagate = True
            self.log.setLevel(self.log_level)
            _one_log_for_everything()

    return ReaderKernelApp


def limit_memory(most: int) -> None:
    """The operating system's limit on this process's writable memory (soft and hard: the
    kernel cannot raise it again)."""
    resource.setrlimit(resource.RLIMIT_DATA, (most, most))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m wbk.appkernel", description=__doc__)
    parser.add_argument("--memory", type=int, required=True, help="bytes of writable memory")
    args, kernel_argv = parser.parse_known_args(argv)
    # one BLAS thread (its 32 MB buffer each, counted): a chapter multiplies small matrices,
    # and the kernels share the machine's cores between them
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    threading.stack_size(THREAD_STACK)
    threading.excepthook = _thread_died
    limit_memory(args.memory)
    _one_log_for_everything()
    _kernel_classes().launch_instance(kernel_argv)


if __name__ == "__main__":
    main()
