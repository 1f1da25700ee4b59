"""One learner kernel: start it, run cells with a time limit, take answers out of it, stop it.

Why not nbclient here: nbclient keeps every output in memory (a cell that prints a gigabyte would
take the grader down with it) and waits a full timeout on a kernel that has already died. This
client talks to the kernel directly: it counts output bytes and throws the output away, notices a
dead kernel within a quarter of a second, and interrupts a cell that runs out of time (by message,
which works inside the sandbox) before deciding the kernel is stuck.

Answers leave the kernel through ``user_expressions`` of an empty, silent execute request. IPython
evaluates those with ``eval`` in the user namespace after the cell: they never pass through input
transformers or AST transformers, and nothing printed is ever read. What comes back is only a
claim of a value (see ``probe.py``): parsed here as a literal, never evaluated, judged outside.

Quotas: the kernel runs with an address-space limit (``RLIMIT_AS``: an allocation beyond it is a
MemoryError, or the kernel dies), a per-file size limit and a watch on the bytes in its work folder
(polled while it runs), no core files, and the cell time limit. After the session every process
the kernel started is gone: its whole process group and session are killed, and, because the
grading process is a child subreaper (Linux), so is anything that double-forked away from them;
inside bubblewrap the sandbox's own PID namespace ends with it.
"""

from __future__ import annotations

import ast
import inspect
import os
import queue
import re
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import zmq
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager

from workbook import plain as plain_module
from workbook.grade import probe as probe_module
from workbook.grade.cleanup import remove_tree
from workbook.grade.results import PROBE_CLAIMS, Claim
from workbook.grade.sandbox import Sandbox, bwrap_args, kernel_env, prepare

START_TIMEOUT = 120  # seconds for a kernel to come up, generous for a loaded machine
GRACE = 30  # seconds a cell gets to stop after an interrupt before the kernel counts as stuck
SETTLE = 10  # seconds to wait, after a reply, for the output that the kernel sent before it
UNSENT_SCAN = 256 << 10  # bytes of new kernel log read after a request, at most
# The traceback of the kernel's output thread failing to pack or send a message (ipykernel's iostream):
# its file, then an exception's name at the start of a line. Two linear searches, whatever the log holds.
_UNSENT_FILE = re.compile(r"ipykernel[/\\]iostream\.py")
_UNSENT_ERROR = re.compile(r"^[A-Za-z_.]*(?:Error|Exception)\b", re.M)
# (generous: a loaded machine must not turn a stopped loop into "stuck")
PAYLOAD_LIMIT = 1_000_000  # characters of one answer as text; far above any exercise's answer
MAX_MESSAGE = 64 << 20  # bytes; a bigger message from the kernel is dropped by ZeroMQ, never held in memory
MEMORY_LIMIT = 2048 << 20  # bytes of address space per kernel; a notebook of this course needs under 1 GB
DISK_LIMIT = 512 << 20  # bytes in the kernel's work folder (data copy included), and per file
DISK_POLL = 1.0  # seconds between looks at the work folder's size


@dataclass(frozen=True)
class Limits:
    """What one kernel may use; exceeding one is a row status, never a crash of the grader.

    ``grace`` is how long an interrupted cell may take to stop before the kernel counts as stuck
    (the tests shorten it: a cell that ignores the interrupt then costs them seconds, not half a minute).
    """

    memory: int = MEMORY_LIMIT
    disk: int = DISK_LIMIT
    grace: float = GRACE


# Runs first inside the kernel's process (in the sandbox too): set the limits, then become the kernel.
LIMITER = (
    "import os, signal, sys\n"
    "memory, disk = int(sys.argv[1]), int(sys.argv[2])\n"
    "try:\n"
    "    import resource\n"
    "except ImportError:  # Windows: no resource limits to set\n"
    "    resource = None\n"
    "if resource is not None:\n"
    "    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-big file is an OSError, not a dead kernel\n"
    "    for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_FSIZE, disk),\n"
    "                         (resource.RLIMIT_CORE, 0)):\n"
    "        try:\n"
    "            resource.setrlimit(limit, (value, value))\n"
    "        except (ValueError, OSError):  # a system that refuses one limit still gets the others\n"
    "            pass\n"
    "os.execv(sys.executable, [sys.executable] + sys.argv[3:])\n"
)


# Then the kernel, as ipykernel_launcher starts it, but with a lossless output socket: ZeroMQ drops what a
# publishing socket cannot queue (1,000 messages by default), and a cell flushing line by line on a busy
# machine outruns that, so its output went uncounted. The grader drains the other end all the time.
# The grader never attaches a debugger: with debugpy out of reach while the kernel starts, ipykernel
# leaves its debugger off instead of importing it (about 0.07 s of processor time in every
# kernel); once the kernel is up, the learner's code can import debugpy as usual.
KERNEL_MAIN = (
    "import sys\n"
    "from pathlib import Path\n"
    "if sys.path and (sys.path[0] == '' or Path(sys.path[0]) == Path.cwd()):\n"
    "    del sys.path[0]  # the learner's folder is not where the kernel's own modules come from\n"
    "import zmq\n"
    "_socket = zmq.Context.socket\n"
    "def _lossless(self, kind, *args, **kwargs):\n"
    "    made = _socket(self, kind, *args, **kwargs)\n"
    "    if kind in (zmq.PUB, zmq.XPUB):\n"
    "        made.setsockopt(zmq.SNDHWM, 0)\n"
    "    return made\n"
    "zmq.Context.socket = _lossless\n"
    "sys.modules['debugpy'] = None\n"
    "from ipykernel import kernelapp\n"
    "_app = kernelapp.IPKernelApp.instance()\n"
    "_app.initialize()\n"
    "del sys.modules['debugpy']\n"
    "_app.start()\n"
)


@dataclass(frozen=True)
class KernelOutcome:
    """What happened to one request (a :class:`Claim`: ok, error, timeout, stuck, dead, broken, disk)."""

    status: Claim
    error: str = ""
    reply: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Claim(self.status))


@dataclass(frozen=True)
class Extraction:
    """One answer taken out of the kernel: ``Claim.ok`` with plain ``data``, or why there is none."""

    status: Claim
    data: Any = None
    message: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Claim(self.status))


_open: set[KernelSession] = set()


def close_all() -> None:
    """Stop every kernel this process still runs and remove its folder (a worker told to stop)."""
    for session in list(_open):
        session.close()


class KernelDied(RuntimeError):
    pass


class DiskFull(RuntimeError):
    pass


class KernelBroken(RuntimeError):
    """The kernel sent something that is not a Jupyter message (learner code replaced what it uses
    to talk, json.dumps for one): nothing it says from now on can be believed."""


def _parse(message: Any) -> tuple[str, str, dict]:
    """(parent msg_id, msg_type, content) of a message, or KernelBroken when it has another shape."""
    try:
        parent, kind, content = (
            message["parent_header"].get("msg_id", ""),
            message["msg_type"],
            message["content"],
        )
    except Exception:
        raise KernelBroken from None
    if type(parent) is not str or type(kind) is not str or type(content) is not dict:
        raise KernelBroken
    return parent, kind, content


class _OneSpec(KernelSpecManager):
    """A kernel spec manager that knows exactly one kernel: ours, built for this submission."""

    def __init__(self, spec: KernelSpec, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._spec = spec

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return self._spec


def boot_code(name: str, limit: int = PAYLOAD_LIMIT) -> str:
    """The first cell a kernel runs: private copies of ``workbook.plain`` and ``probe``, builtins frozen."""
    plain_src, probe_src = inspect.getsource(plain_module), inspect.getsource(probe_module)
    return (
        "def _workbook_grade_boot():\n"
        "    import builtins\n"
        "    snapshot = dict(vars(builtins))\n"
        "    plain = {'__builtins__': snapshot, '__name__': 'workbook_grade_plain'}\n"
        f"    exec(compile({plain_src!r}, '<workbook.plain>', 'exec'), plain)\n"
        "    probe = {'__builtins__': snapshot, '__name__': 'workbook_grade_probe'}\n"
        f"    exec(compile({probe_src!r}, '<workbook.grade.probe>', 'exec'), probe)\n"
        f"    return probe['make_extractor'](globals(), plain['to_plain'], plain['NotPlainData'], {limit})\n"
        f"globals()[{name!r}] = _workbook_grade_boot()\n"
        "del _workbook_grade_boot\n"
    )


UNREADABLE = Extraction(
    Claim.unreadable,
    message="the answer could not be read from the kernel as plain data "
    "(something in the notebook changed how values leave it)",
)


def read_payload(text: Any, limit: int = PAYLOAD_LIMIT) -> Extraction:
    """Parse the kernel's claim of a value; never evaluates anything but literals, trusts nothing."""
    if type(text) is not str or len(text) > 4 * limit + 200:
        return UNREADABLE
    try:
        payload = ast.literal_eval(text)
        if type(payload) is str:  # the repr IPython gives of the extractor's text
            payload = ast.literal_eval(payload)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return UNREADABLE
    if type(payload) is not dict or type(payload.get("status")) is not str:
        return UNREADABLE
    message = payload.get("message", "")
    if payload["status"] not in {claim.value for claim in PROBE_CLAIMS}:
        return UNREADABLE  # the probe never says anything else; a kernel that does is not believed
    return Extraction(Claim(payload["status"]), payload.get("data"), message if type(message) is str else "")


class KernelSession:
    """A fresh kernel in a fresh temporary folder, for one submission. Use it as a context manager."""

    def __init__(
        self,
        work_root: Path,
        sandbox: Sandbox,
        timeout: float,
        limits: Limits = Limits(),
        course: Path | None = None,
    ) -> None:
        self.work_root, self.sandbox, self.timeout, self.limits = work_root, sandbox, timeout, limits
        self.course = course  # the student edition to copy in (None: built from this repository)
        self.next_disk_check = 0.0
        self.children_before: set[int] = set()
        self.extractor = f"_workbook_grade_{secrets.token_hex(4)}"
        self.output_by_request: dict[str, int] = {}
        self.settled: set[str] = set()  # requests whose 'idle' status has come: all their output is counted
        self.deaf = False  # a message too big dropped the output connection: nothing more comes on it
        self.unsent: set[str] = set()  # labels of requests whose output the kernel failed to send at all
        self.log_read = 0  # how far the grader has read the kernel's own log
        self.oversized: set[str] = set()  # labels of requests during which one message was too big to receive
        self.label_of: dict[str, str] = {}
        self.manager: KernelManager | None = None
        self.client: Any = None
        self.context: zmq.Context | None = None
        self.log: IO[bytes] | None = None  # the kernel's own stdout and stderr

    # ---------- start and stop ----------

    def __enter__(self) -> KernelSession:
        _open.add(self)
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _start(self) -> None:
        cwd = prepare(self.work_root, self.course)
        env = kernel_env(self.work_root)
        connection = self.work_root / "conn"
        connection.mkdir()
        reaper_on()
        self.children_before = set(children())
        argv = [
            sys.executable,
            "-c",
            LIMITER,
            str(self.limits.memory),
            str(self.limits.disk),
            "-c",
            KERNEL_MAIN,
            "-f",
            "{connection_file}",
            "--HistoryManager.enabled=False",
        ]
        if self.sandbox.isolated:
            argv = bwrap_args(self.work_root) + argv
            # No network inside: kernel and grader talk over Unix sockets in the shared folder.
            transport = {"transport": "ipc", "ip": str(connection / "k")}
        else:
            transport = {"transport": "tcp", "ip": "127.0.0.1"}
        spec = KernelSpec(
            argv=argv, display_name="workbook grade", language="python", interrupt_mode="message"
        )
        self.context = zmq.Context()
        self.context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        # Output is counted as it arrives: let it queue on the grader's side rather than be dropped there.
        self.context.setsockopt(zmq.RCVHWM, 0)
        self.manager = KernelManager(
            kernel_name="workbook-grade",
            kernel_spec_manager=_OneSpec(spec),
            context=self.context,
            connection_file=str(connection / "kernel.json"),
            **transport,
        )
        self.log = open(self.work_root / "kernel.log", "wb")  # noqa: SIM115 (open for the kernel's life; closed in stop())
        self.manager.start_kernel(
            env=env, cwd=str(cwd), stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT
        )
        self.client = self.manager.client(context=self.context)
        self.client.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=False)
        try:
            self._wait_for_ready(START_TIMEOUT)
        except RuntimeError as error:
            raise RuntimeError(f"the kernel did not start ({error}): {self.log_tail()}") from None
        self.shell = self.client.shell_channel
        self.iopub = self.client.iopub_channel
        self.poller = zmq.Poller()
        self.poller.register(self.shell.socket, zmq.POLLIN)
        self.poller.register(self.iopub.socket, zmq.POLLIN)
        # A single output message over MAX_MESSAGE makes ZeroMQ drop the connection (and the message):
        # watch for that, so an enormous print is still reported, not silently lost.
        self.monitor = self.iopub.socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
        self.poller.register(self.monitor, zmq.POLLIN)
        outcome = self._request(
            boot_code(self.extractor), silent=True, label="boot", timeout=max(self.timeout, 60)
        )
        if outcome.status != "ok":
            raise RuntimeError(f"the grader could not prepare the kernel ({outcome.status} {outcome.error})")

    def _wait_for_ready(self, timeout: float) -> None:
        """The kernel answers on both channels: as jupyter_client's wait_for_ready, without its last step.

        That step waits until the output channel has been silent for 0.2 s, on every kernel. The grader
        has no need of it: it counts output by the request it belongs to, so a message the kernel sent
        while starting is never taken for a cell's. What matters is kept: a reply to kernel_info on the
        shell channel, then a message on the output channel, which shows the subscription is live.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.client.kernel_info()
            try:
                message = self.client.shell_channel.get_msg(timeout=1)
            except queue.Empty:
                message = None
            if message is not None and message.get("msg_type") == "kernel_info_reply":
                try:
                    self.client.iopub_channel.get_msg(timeout=0.2)
                    return
                except queue.Empty:
                    pass  # output not connected yet: ask again
            if not self.alive():
                raise RuntimeError("the kernel died before it answered")
        raise RuntimeError(f"the kernel did not answer in {timeout} s")

    def log_tail(self) -> str:
        try:
            lines = (self.work_root / "kernel.log").read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return lines[-1] if lines else "no message"

    def close(self) -> None:
        """Stop everything this session started; each step on its own, so one failure stops no other."""
        if getattr(self, "monitor", None) is not None:
            try:
                self.iopub.socket.disable_monitor()
            except Exception:
                pass
            self.monitor.close(linger=0)
            self.monitor = None
        if self.client is not None:
            try:
                self.client.stop_channels()
            except Exception:
                pass
        if self.manager is not None:
            try:
                if self.manager.has_kernel:
                    self.manager.shutdown_kernel(now=True)
            except Exception:
                pass
            # Last resort (shutdown can fail inside a signal handler): kill the process we started,
            # its process group and session, whatever they left.
            process = getattr(getattr(self.manager, "provisioner", None), "process", None)
            if process is not None:
                kill_group(process.pid)
                if process.poll() is None:
                    process.kill()
            try:
                self.manager.cleanup_resources()
            except Exception:
                pass
        if self.context is not None:
            self.context.destroy(linger=0)
            self.context = None
        if self.log is not None:
            self.log.close()
            self.log = None
        kill_strays(self.children_before)
        remove_tree(
            self.work_root
        )  # never raises: a folder the notebook made unremovable is noted by the runner
        _open.discard(self)

    # ---------- requests ----------

    def alive(self) -> bool:
        return self.manager is not None and self.manager.is_alive()

    def run_cell(self, source: str, label: str) -> KernelOutcome:
        """Run one cell as JupyterLab would (it counts in the history), within the time limit."""
        return self._request(source, silent=False, label=label, timeout=self.timeout)

    def extract(self, answer: str, kind: str, probes: tuple) -> Extraction:
        """Take one answer out as plain data (or, for a function, its results on ``probes``)."""
        expression = f"{self.extractor}({answer!r}, {kind!r}, {probes!r})"
        outcome = self._request(
            "",
            silent=True,
            label=f"extract {answer}",
            timeout=self.timeout,
            user_expressions={"answer": expression},
        )
        if outcome.status in (Claim.timeout, Claim.stuck, Claim.dead, Claim.broken, Claim.disk):
            return Extraction(outcome.status)
        value = outcome.reply.get("user_expressions", {}).get("answer")
        if not isinstance(value, dict) or value.get("status") != "ok":
            what = f"{value.get('ename')}: {value.get('evalue')}" if isinstance(value, dict) else "no value"
            return Extraction(Claim.error, message=f"reading {answer} failed ({what})")
        return read_payload(value.get("data", {}).get("text/plain"))

    def _request(
        self, code: str, *, silent: bool, label: str, timeout: float, user_expressions: dict | None = None
    ) -> KernelOutcome:
        if self.manager is None or not self.alive():
            return KernelOutcome(Claim.dead)
        msg_id = self.client.execute(
            code,
            silent=silent,
            store_history=not silent,
            user_expressions=user_expressions or {},
            allow_stdin=False,
            stop_on_error=False,
        )
        self.label_of[msg_id] = label
        try:
            reply = self._wait(msg_id, timeout)
            if reply is None:
                try:
                    self.manager.interrupt_kernel()
                except Exception:  # cannot even ask it to stop: as good as stuck
                    return KernelOutcome(Claim.stuck)
                reply = self._wait(msg_id, self.limits.grace)
                if reply is not None:
                    self._settle(msg_id, SETTLE)
                return KernelOutcome(Claim.timeout if reply is not None else Claim.stuck, reply=reply or {})
            self._settle(msg_id, SETTLE)
            self._look_for_unsent(label)
        except DiskFull:
            self._kill()
            return KernelOutcome(Claim.disk)
        except (KernelDied, KernelBroken) as error:
            self.oversized.discard(label)  # a dying kernel drops its connections too: that was no big print
            return KernelOutcome(Claim.dead if isinstance(error, KernelDied) else Claim.broken)
        # A last look, however fast the cell.
        if folder_bytes(self.work_root, self.limits.disk) > self.limits.disk:
            self._kill()
            return KernelOutcome(Claim.disk)
        if reply.get("status") == "ok":
            return KernelOutcome(Claim.ok, reply=reply)
        return KernelOutcome(Claim.error, f"{reply.get('ename', 'Error')}: {reply.get('evalue', '')}", reply)

    def _wait(self, msg_id: str, seconds: float) -> dict | None:
        """The execute reply to ``msg_id``, or None when time is up; output is counted on the way."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready = self._poll_once(msg_id, left, deadline)
            if self.shell.socket in ready:
                try:
                    message = self.shell.get_msg(timeout=0)
                except Exception:  # a message the session cannot even unpack
                    raise KernelBroken from None
                parent, kind, content = _parse(message)
                if parent == msg_id and kind == "execute_reply":
                    return content
            elif not ready and not self.alive():
                raise KernelDied

    def _settle(self, msg_id: str, seconds: float) -> None:
        """Count the rest of one request's output: the reply comes on another socket, often before it.

        The kernel sends its 'idle' status for a request after all of that request's output, on the same
        ordered channel, so once it has come the count is complete however slow the machine is.
        """
        deadline = time.monotonic() + seconds
        while msg_id not in self.settled and not self.deaf:
            left = deadline - time.monotonic()
            if left <= 0 or not self.alive():
                return
            self._poll_once(msg_id, left, deadline)

    def _poll_once(self, msg_id: str, left: float, deadline: float) -> dict:
        """Wait up to a quarter second for the kernel, count the output that came, and say what is ready."""
        ready = dict(self.poller.poll(int(min(left, 0.25) * 1000) + 1))
        self._check_disk()
        if self.monitor in ready:  # one message too big: the connection dropped and delivers no more
            self.monitor.recv_multipart()
            self.oversized.add(self.label_of.get(msg_id, "a cell"))
            self.deaf = True
        if self.iopub.socket in ready:
            self._drain_output(deadline)
        return ready

    def _look_for_unsent(self, label: str) -> None:
        """Notice output the kernel could not even send: packing a huge print for the wire can fail in its
        output thread (MemoryError under the memory limit), and then nothing arrives to be counted. The
        thread's traceback goes to the kernel's log, which the grader reads on from where it stopped."""
        try:
            with open(self.work_root / "kernel.log", "rb") as log:
                log.seek(0, 2)
                end = log.tell()
                start = max(self.log_read, end - UNSENT_SCAN)  # a flooded log is read at its end only
                log.seek(start)
                new = log.read(end - start).decode("utf-8", "replace")
        except OSError:
            return
        self.log_read = end
        if _UNSENT_FILE.search(new) and _UNSENT_ERROR.search(new):
            self.unsent.add(label)

    def _check_disk(self) -> None:
        now = time.monotonic()
        if now < self.next_disk_check:
            return
        self.next_disk_check = now + DISK_POLL
        if folder_bytes(self.work_root, self.limits.disk) > self.limits.disk:
            raise DiskFull

    def _kill(self) -> None:
        process = getattr(getattr(self.manager, "provisioner", None), "process", None)
        if process is not None:
            kill_group(process.pid)

    def _drain_output(self, deadline: float) -> None:
        """Read the output messages waiting now: count their size, keep nothing."""
        while self.iopub.msg_ready() and time.monotonic() < deadline:
            try:
                message = self.iopub.get_msg(timeout=0)
            except Exception:
                raise KernelBroken from None
            parent, kind, content = _parse(message)
            if kind == "status" and content.get("execution_state") == "idle":
                self.settled.add(parent)
            self.output_by_request[parent] = self.output_by_request.get(parent, 0) + _size(kind, content)

    def finish_output(self) -> None:
        """Count what is still on its way before the totals are read (output a cell's threads sent late)."""
        if self.client is not None and self.alive():
            end = time.monotonic() + 1
            try:
                while time.monotonic() < end and self.iopub.socket.poll(100):
                    self._drain_output(end)
            except KernelBroken:
                pass  # the run already ended; a garbled last message changes no result

    def output_by_label(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for msg_id, size in self.output_by_request.items():
            label = self.label_of.get(msg_id)
            if label is not None:
                totals[label] = totals.get(label, 0) + size
        return totals


def _size(kind: str, content: dict) -> int:
    try:
        if kind == "stream":
            return len(str(content.get("text", "")))
        if kind in ("display_data", "execute_result", "update_display_data"):
            return sum(len(str(value)) for value in dict(content.get("data", {})).values())
        if kind == "error":
            return sum(len(str(line)) for line in list(content.get("traceback", [])))
    except (TypeError, ValueError):
        raise KernelBroken from None
    return 0


def folder_bytes(folder: Path, stop_above: int) -> int:
    """Bytes in the files under ``folder`` (links not followed); stops counting past ``stop_above``."""
    total = 0
    stack = [str(folder)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_blocks * 512
            except OSError:
                continue
        if total > stop_above:
            break
    return total


# ---------- every process the kernel started is gone ----------

PR_SET_CHILD_SUBREAPER = 36


def reaper_on() -> bool:
    """Make this process the child subreaper (Linux): orphans of the kernel become our children."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def children(parent: int | None = None) -> list[int]:
    """The process ids whose parent is ``parent`` (this process by default), from /proc."""
    parent = os.getpid() if parent is None else parent
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read().decode(errors="replace")
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if len(fields) > 1 and fields[1] == str(parent) and fields[0] != "Z":
            found.append(int(name))
    return found


def kill_group(pid: int) -> None:
    """SIGKILL the process group and session the kernel was started in (it leads both)."""
    killpg = getattr(os, "killpg", None)  # POSIX only; on Windows the kernel process itself is killed
    if killpg is None:
        return
    try:
        killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def kill_strays(keep: set[int], rounds: int = 50) -> int:
    """Kill every child of ours that did not exist before the kernel (double-forked daemons land
    here), and their descendants; reap them. Returns how many were killed."""
    killed = 0
    for _ in range(rounds):
        strays = [pid for pid in children() if pid not in keep]
        if not strays:
            break
        for pid in strays:
            for child in _descendants(pid):
                _kill_pid(child)
            _kill_pid(pid)
            killed += 1
        for pid in strays:
            try:
                os.waitpid(pid, 0)
            except (ChildProcessError, OSError):
                pass
    return killed


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def _kill_pid(pid: int) -> None:
    try:
        os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
    except (ProcessLookupError, PermissionError, OSError):
        pass


def work_folder() -> Path:
    """A new temporary folder, under $WORKBOOK_GRADE_TMP when set, else /tmp: a short path, because
    the Unix sockets inside it must stay under about 100 characters."""
    import tempfile

    base = os.environ.get("WORKBOOK_GRADE_TMP") or (
        "/tmp" if os.name == "posix" and os.path.isdir("/tmp") else None
    )
    return Path(tempfile.mkdtemp(prefix="wbgrade-", dir=base))
