"""The README's first command as a person runs it: make play, here with no screen for a window."""

import os
import pty
import select
import shutil
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Terminal:
    """A command on a pseudo-terminal, as a person at a text console runs it."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:                               # the child: the command itself
            os.chdir(ROOT)
            os.execvpe(argv[0], argv, env)
        self.out = b""

    def wait_for(self, text, seconds=120):
        end = time.time() + seconds
        while text.encode() not in self.out:
            if time.time() > end:
                raise AssertionError("no %r in %r" % (text, self.out.decode()[-400:]))
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    self.out += os.read(self.fd, 4096)
                except OSError:                          # the command has ended
                    raise AssertionError("ended without %r: %r" % (text, self.out.decode()[-400:]))

    def type(self, line):
        os.write(self.fd, line.encode() + b"\n")

    def status(self):
        _pid, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
def test_make_play_with_no_screen_plays_in_the_terminal():
    env = dict((k, v) for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "MAKEFLAGS", "MFLAGS"))
    term = Terminal(["make", "-s", "play"], env)
    term.wait_for("the same game in the terminal (python -m tools play)")
    term.wait_for("Rule set [1-3]:")
    term.type("1")
    term.wait_for("Your choice")
    term.type("q")
    term.wait_for("Quit the game? [y/n]")
    term.type("y")
    term.wait_for("bye")
    assert term.status() == 0
    assert b"Error" not in term.out and b"Traceback" not in term.out
