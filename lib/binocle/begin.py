"""How a game begins on the handheld: a new one, the saved one continued, and the way back
after a screen failed. Used now and then, so the app loads it when needed and then lets
it go (App.start_game, resume_game, recover). The saved game continues in three steps the
app takes one after the other (App.resume_game: loading, resume_session, resumed), so that
no frame of this module lies under the replay."""


def recover(app, e):
    """Say that a screen failed and go back to the game in progress as saved after its
    last action, else to the title. Failing again before a button is pressed goes to the
    title; failing there too stops the game (code.py says so)."""
    try:
        import traceback             # for the serial console: what to report
        traceback.print_exception(e)
    except Exception:
        print("Error:", type(e).__name__, e)
    again, app.failed = app.failed, True
    if again and app.session is None:
        raise e
    back = False
    if app.session is not None and app.saved is not None and not again:
        try:
            back = app.resume_game()
        except Exception:            # the game's own table fails: the title, then
            pass
    if not back:
        app.to_title()
    app.toast("Sorry, a screen failed (%s). Back to the %s." % (
        type(e).__name__, "game" if app.session is not None else "title"), 5000)


def loading(app):
    """Before the saved game is replayed (resume_session): the table's code loaded, a note,
    and the screen before let go."""
    import binocle.scenes.table
    app.toast("Loading the saved game...")
    app.display.refresh()
    app.close_all()                  # the screen before goes while the game is replayed


def resumed(app, done):
    """After the replay: the table; or, if it failed (done False), the title with the note
    resume_session left."""
    if not done:
        until = app.toast_until      # what resume_session said stays on the title
        app.to_title()
        app.toast_box.hidden, app.toast_until = False, until
        return
    from binocle.scenes.table import Table
    app.replace(Table(app, app.session))


def resume_session(app):
    """The saved game's Session, replayed as saved; False (a toast, the save cleared) if
    that fails. Statistics of an older version have counted its finished deals."""
    from engine import record
    from binocle.session import resume
    data = app.saved
    if not isinstance(data, bytes):                  # the game left for the title
        data = record.encode(data)[:7 + app.kept]
    try:
        app.session = resume(data, app.settings.level_name(app.settings.game_level))
    except (record.RecordError, ValueError) as e:
        app.saved = None
        app.write_entry()
        app.toast("Saved game unreadable: new start (%s)" % str(e)[:40], 4000)
        return False
    state = app.session.state
    app.record_head, app.saved = data[:7], state
    if not app.stats.counting(data[1:7]):
        app.stats.begin(data[1:7], len(state.sheet), state.is_game_over())
    return True


def new_game(app, seed):
    """A new game with the chosen options, at the table."""
    from binocle.scenes.table import Table
    new_session(app, seed)
    app.replace(Table(app, app.session))


def new_session(app, seed):
    """A new game's Session with the chosen options, counted and saved from the start."""
    from engine import record
    from binocle.session import Session
    st = app.settings
    st.game_level = st.level
    app.settings_bytes = st.to_bytes()
    app.session = Session(st.rules_name(), seed, st.options(), st.level_name())
    app.record_head = record.encode(app.session.state)      # no actions yet: the header
    app.stats.begin(app.record_head[1:7])
    if app.store is not None:
        app.store.new_game()
    app.said_too_long = False
    app.autosave()
