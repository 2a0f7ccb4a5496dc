"""The channel to a child program: lines both ways, the byte limit, deadlines, stderr, stopping.

Each test starts a small Python program (``sys.executable -c``), so they are all slow.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from take5rules.errors import MalformedInputError
from take5rules.playing.channel import Channel, ChannelError, command_words

pytestmark = pytest.mark.slow

#: The rule: no line over 65,536 bytes, its newline included (stated here, not read from code).
LIMIT = 65_536


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


def _gone(pid: int, within: float = 5.0) -> bool:
    """Whether process *pid* has ended (reaped or not), waiting *within* seconds at most."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # a zombie of ours counts as ended
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_command_words_split_as_a_shell_would() -> None:
    assert command_words("node 'my bot.js' --x") == ("node", "my bot.js", "--x")
    assert command_words(["a b", "c"]) == ("a b", "c")
    with pytest.raises(MalformedInputError, match="empty"):
        command_words("   ")
    with pytest.raises(MalformedInputError, match="cannot be split"):
        command_words("bot 'open")


def test_a_line_goes_there_and_back() -> None:
    channel = Channel(_python("""
        import sys
        for line in sys.stdin:
            print(line.strip()[::-1], flush=True)
        """))
    try:
        channel.start()
        for word in ("abc", "héllo", ""):
            channel.send(word, time.monotonic() + 10)
            assert channel.receive(time.monotonic() + 10) == word[::-1].encode()
    finally:
        assert channel.stop() == 0


def test_a_line_of_exactly_the_limit_passes_and_one_byte_more_is_oversize() -> None:
    channel = Channel(_python(f"""
        import sys
        sys.stdout.write("a" * ({LIMIT} - 1) + "\\n")
        sys.stdout.write("b" * {LIMIT} + "\\n")
        sys.stdout.flush()
        sys.stdin.read()
        """))
    try:
        channel.start()
        assert channel.receive(time.monotonic() + 10) == b"a" * (LIMIT - 1)
        with pytest.raises(ChannelError) as caught:
            channel.receive(time.monotonic() + 10)
        assert caught.value.kind == "oversize"
    finally:
        channel.stop()


def test_an_endless_line_is_oversize_at_the_limit_not_read_to_its_end() -> None:
    # 10 MB in one line: the channel stops at the limit, long before the program ends it.
    channel = Channel(_python("""
        import sys
        sys.stdout.write("x" * 10_000_000)
        sys.stdout.flush()
        sys.stdin.read()
        """))
    try:
        channel.start()
        with pytest.raises(ChannelError) as caught:
            channel.receive(time.monotonic() + 10)
        assert caught.value.kind == "oversize"
        assert "65536 bytes" in str(caught.value)
    finally:
        channel.stop(grace=0.1)
    assert _gone(channel.pid or 0)


def test_no_answer_by_the_deadline_is_time() -> None:
    channel = Channel(_python("import sys, time; sys.stdin.read(); time.sleep(60)"))
    try:
        channel.start()
        began = time.monotonic()
        with pytest.raises(ChannelError) as caught:
            channel.receive(began + 0.3)
        took = time.monotonic() - began
        assert caught.value.kind == "time"
        assert 0.25 < took < 3.0
    finally:
        channel.stop(grace=0.1)


def test_a_program_that_exits_names_its_status_and_its_stderr() -> None:
    channel = Channel(_python("""
        import sys
        for n in range(30):
            print(f"line {n}", file=sys.stderr)
        sys.exit(3)
        """))
    channel.start()
    with pytest.raises(ChannelError) as caught:
        channel.receive(time.monotonic() + 10)
    assert caught.value.kind == "exited"
    assert "status 3" in str(caught.value)
    channel.stop()
    assert channel.stderr_tail() == tuple(f"line {n}" for n in range(10, 30))


def test_a_command_that_does_not_exist_cannot_start(tmp_path: Path) -> None:
    channel = Channel([str(tmp_path / "no-such-program")])
    with pytest.raises(ChannelError) as caught:
        channel.start()
    assert caught.value.kind == "start"
    assert "no such file" in str(caught.value)


def _fill(channel: Channel) -> None:
    for _ in range(1000):  # the pipe holds some; then it is full
        channel.send("y" * 60_000, time.monotonic() + 0.3)


def test_a_program_that_does_not_read_makes_a_write_time_out() -> None:
    channel = Channel(_python("import time; time.sleep(60)"))
    try:
        channel.start()
        with pytest.raises(ChannelError) as caught:
            _fill(channel)
        assert caught.value.kind == "time"
    finally:
        channel.stop(grace=0.1)


def test_stop_ends_a_program_that_ignores_quit_and_sigterm_and_its_own_children() -> None:
    channel = Channel(_python("""
        import signal, subprocess, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(child.pid, flush=True)
        while True:
            time.sleep(1)
        """))
    channel.start()
    grandchild = int(channel.receive(time.monotonic() + 10))
    began = time.monotonic()
    status = channel.stop('{"type": "quit"}', grace=0.2, term_grace=0.2)
    assert status == -signal.SIGKILL
    assert time.monotonic() - began < 4.0
    assert _gone(channel.pid or 0)
    assert _gone(grandchild)


def test_a_quit_line_lets_the_program_end_by_itself() -> None:
    channel = Channel(_python("""
        import sys
        for line in sys.stdin:
            if "quit" in line:
                sys.exit(7)
        """))
    channel.start()
    assert channel.stop('{"type": "quit"}') == 7


def _owner(tmp_path: Path, ending: str) -> tuple[subprocess.Popen[str], int]:
    """A Python process holding a channel to a sleeping child; returns it and the child's pid."""
    script = tmp_path / "owner.py"
    script.write_text(textwrap.dedent(f"""
        import sys, time
        from take5rules.playing.channel import Channel
        channel = Channel([sys.executable, "-c",
                           "import signal, time; signal.signal(signal.SIGTERM, "
                           "signal.SIG_IGN); time.sleep(60)"])
        channel.start()
        print(channel.pid, flush=True)
        {ending}
        """), encoding="utf-8")
    # Ctrl-C reaches the owner even when the suite runs with SIGINT ignored (a background job
    # of a shell without job control), which its children would otherwise inherit.
    owner = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert owner.stdout is not None
    return owner, int(owner.stdout.readline())


@pytest.mark.parametrize("ending", ["pass", "raise SystemExit(4)", "time.sleep(60)"])
def test_every_child_is_stopped_when_its_owner_ends(tmp_path: Path, ending: str) -> None:
    owner, child = _owner(tmp_path, ending)
    if ending.startswith("time"):
        owner.send_signal(signal.SIGTERM)
    owner.wait(timeout=20)
    assert _gone(child)


def test_every_child_is_stopped_on_ctrl_c(tmp_path: Path) -> None:
    owner, child = _owner(tmp_path, "time.sleep(60)")
    owner.send_signal(signal.SIGINT)
    owner.wait(timeout=20)
    assert _gone(child)
