# The board runs this file at start. It checks that the last update finished (the files match
# manifest.json), then starts the game in lib/binocle. If they do not match it says how to
# finish the update instead of crashing; the text appears on the board's screen.
# (On a desktop this file may be imported as Python's own `code` module: then it does nothing.)
import sys

if sys.implementation.name == "circuitpython":
    try:
        import binocle.startup
        problems = binocle.startup.check("/")
    except Exception as e:               # the checker itself damaged: the update did not finish
        problems = ["game files damaged: %s" % e]
    if problems:
        print("The last update did not finish.")
        print(problems[0])
        print("Hold SELECT and press reset,")
        print("connect the board, then run")
        print("python -m tools deploy")
        while True:
            pass
    binocle.forget("binocle.startup")    # its code is not needed again
    try:
        import binocle.app
        binocle.app.main()
    except MemoryError:                  # the board's RAM is too small for this version
        print("Out of memory: this")
        print("board has too little RAM")
        print("for this version (see")
        print("docs/memory.md).")
        print("Every move was saved.")
        while True:
            pass
    except Exception as e:               # a short line on screen, not a traceback
        print("The game stopped:", type(e).__name__, e)
        print("Press reset to start again.")
        while True:
            pass
