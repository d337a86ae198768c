"""Fixtures shared by several test files."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="session")
def quick_bench():
    """The JSON of `python -m tools bench --quick --rules french` (the AI part plays all three
    rule sets), run once per test session in a new process, as a person runs it (~45 s)."""
    done = subprocess.run([sys.executable, "-m", "tools", "bench", "--quick", "--rules", "french"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
