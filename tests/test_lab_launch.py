"""`make lab` keeps the terminal to what needs attention: the kernel's traffic is encrypted, so ipykernel
has no plain-TCP warning to log at every kernel start (both the course's Makefile and the edition's)."""

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKEFILES = [ROOT / "Makefile", ROOT / "src" / "workbook" / "handout_files" / "Makefile"]
WARNING = "without encryption"


@pytest.mark.parametrize("makefile", MAKEFILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_make_lab_asks_for_an_encrypted_kernel(makefile):
    printed = subprocess.run(["make", "-n", "-f", str(makefile), "lab", f"VENV_PY={sys.executable}"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
    launch = [line for line in printed.splitlines() if "jupyter lab" in line]
    assert launch, printed
    # The option is chosen by the shell at launch; run that choice with this Python.
    chosen = subprocess.run(["sh", "-c", f"echo {launch[-1].split(' -m jupyter lab ')[1]}"],
                            capture_output=True, text=True, check=True).stdout
    assert "--KernelManager.transport_encryption=auto" in chosen


def _kernel_stderr(encryption: str) -> tuple[str, str]:
    """What a kernel started with ``encryption`` printed for `print(6 * 7)`, and what it logged."""
    from jupyter_client.manager import KernelManager

    with tempfile.TemporaryFile() as log:
        manager = KernelManager(transport_encryption=encryption)
        manager.start_kernel(stderr=log)
        client = manager.client()
        seen: list[str] = []
        try:
            client.start_channels()
            client.wait_for_ready(timeout=60)
            client.execute_interactive(
                "print(6 * 7)", timeout=60,
                output_hook=lambda m: seen.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
            )
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
        log.seek(0)
        return "".join(seen), log.read().decode("utf-8", "replace")


def test_an_encrypted_kernel_runs_code_and_logs_no_plain_tcp_warning():
    zmq = pytest.importorskip("zmq")
    if not zmq.has("curve"):
        pytest.skip("this pyzmq has no CurveZMQ, so make lab starts the kernel unencrypted")
    printed, logged = _kernel_stderr("auto")
    assert printed.strip() == "42"
    assert WARNING not in logged, logged
    _, plain = _kernel_stderr("disabled")
    assert WARNING in plain, "the warning this launch avoids is no longer ipykernel's: read its log again"
