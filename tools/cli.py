"""What every command shares: its argument parser and how a mistake is told.

A mistake on the command line is one line on stderr, "<command>: what is wrong",
and exit status 2; never a traceback. A command raises UsageError (or lets its
Parser raise it) and its main, decorated with command(), says it:

    from tools import cli

    def build_parser():
        p = cli.Parser("arena", "Duplicate matches between AI levels and baselines.")
        p.add_argument("--games", type=cli.positive_int, required=True)
        return p

    @cli.command("arena")
    def main(argv):
        args = build_parser().parse_args(argv)       # UsageError on a bad line
        if args.rules not in RULE_SETS:
            raise cli.UsageError("unknown rule set %r" % args.rules)
"""

import argparse
import os
import sys


class UsageError(Exception):
    """A bad command line: one line for stderr, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (one line) instead of printing its usage block.

    name: the command's name after 'python -m tools'."""

    def __init__(self, name, description, **kw):
        super().__init__(prog="python -m tools " + name, description=description, **kw)
        self.command = name

    def error(self, message):
        raise UsageError(message)


def positive_int(text):
    """An argparse type: a whole number of at least 1."""
    return _int_at_least(text, 1)


def natural_int(text):
    """An argparse type: a whole number of at least 0."""
    return _int_at_least(text, 0)


def ai_level(text):
    """An argparse type: the name of an AI level (engine/ai/levels.py)."""
    from engine.ai import LEVELS
    if text not in LEVELS:
        raise argparse.ArgumentTypeError("unknown level %r (choose from %s)" % (text, ", ".join(LEVELS)))
    return text



def self_play_parser(command, doc, count, default):
    """A tuner's command line: how much to play (--deals or --games, `count`), the first
    game's seed and the AI level in every seat."""
    parser = Parser(command, doc.split("\n\n")[0])
    parser.add_argument("--" + count, type=positive_int, default=default,
                        help="%s to play (default %d)" % (count, default))
    parser.add_argument("--seed", type=natural_int, default=1, help="first game seed (default 1)")
    parser.add_argument("--level", type=ai_level, default="hard",
                        help="the AI level in every seat (default hard)")
    return parser

def _int_at_least(text, least):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    if n < least:
        raise argparse.ArgumentTypeError("must be %d or more, got %d" % (least, n))
    return n


def output_file(text):
    """An argparse type: a file to be written, whose folder must already exist."""
    folder = os.path.dirname(os.path.abspath(os.path.expanduser(text)))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError("no such folder: %s" % folder)
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError("%s is a folder, not a file" % text)
    return text


def write_whole(path, data):
    """Write data (str or bytes) to path so that a reader finds the old file or the new one,
    never half of one: through a file beside it, removed again if the write fails."""
    tmp = "%s.tmp%d" % (path, os.getpid())
    try:
        with open(tmp, "wb" if isinstance(data, bytes) else "w") as fh:
            fh.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def run(command, main, argv):
    """Call main(argv) and turn a UsageError into its one line and status 2
    (and --help's exit into its status)."""
    try:
        return main(argv)
    except UsageError as e:
        sys.stderr.write("%s: %s\n" % (command, e))
        return 2
    except SystemExit as e:              # argparse after --help
        return e.code or 0


def command(name):
    """Decorate a command's main(argv) so that it returns 2 after one line for a
    UsageError, called from tools/__main__.py or directly (tests)."""
    def wrap(main):
        def run_main(argv=None):
            return run(name, main, sys.argv[1:] if argv is None else argv)
        run_main.__doc__ = main.__doc__
        return run_main
    return wrap
