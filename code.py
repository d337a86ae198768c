# The board runs this file at start: the game is in lib/binocle, the engine in engine/.
# (On a desktop this file may be imported as Python's own `code` module: then it does nothing.)
import sys

if sys.implementation.name == "circuitpython":
    import binocle.app

    binocle.app.main()
