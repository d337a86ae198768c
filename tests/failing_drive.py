"""A drive that goes away: FailingDrive wraps any Drive and pulls the cable at a chosen step."""

from tools.users.drives import Drive, DriveGone


class FailingDrive(Drive):
    """Pulls the cable after N writes (fail_after_writes) or N changes of any kind
    (fail_after_steps: writes, renames, removals, new folders).

    The write that is cut leaves half its bytes; another change that is cut does
    not happen. After that every operation fails, like a drive that is gone.
    """

    def __init__(self, inner, fail_after_writes=None, fail_after_steps=None):
        self.inner = inner
        self.name = inner.name
        self.fail_after_writes = fail_after_writes
        self.fail_after_steps = fail_after_steps
        self.writes = 0
        self.steps = 0
        self.gone = False

    def _cut(self, is_write, what):
        if self.gone:
            raise DriveGone("the drive went away")
        cut = (self.fail_after_steps is not None and self.steps >= self.fail_after_steps) or \
            (is_write and self.fail_after_writes is not None and self.writes >= self.fail_after_writes)
        self.steps += 1
        self.writes += is_write
        if cut:
            self.gone = True
            self.message = "the drive went away (simulated: cable pulled during %s)" % what
        return cut

    def _live(self):
        if self.gone:
            raise DriveGone("the drive went away")
        return self.inner

    def write(self, path, data):
        if self._cut(True, "writing " + path):
            self.inner.write(path, data[:len(data) // 2])
            raise DriveGone(self.message)
        self.inner.write(path, data)

    def rename(self, src, dst):
        if self._cut(False, "renaming " + src):
            raise DriveGone(self.message)
        self.inner.rename(src, dst)

    def remove(self, path):
        if self._cut(False, "removing " + path):
            raise DriveGone(self.message)
        self.inner.remove(path)

    def makedirs(self, path):
        if self._cut(False, "making " + path):
            raise DriveGone(self.message)
        self.inner.makedirs(path)

    def files(self):
        return self._live().files()

    def read(self, path):
        return self._live().read(path)

    def exists(self, path):
        return self._live().exists(path)

    def free(self):
        return self._live().free()

    def cluster_size(self):
        return self._live().cluster_size()

    def read_only(self):
        return self._live().read_only()

    def file_runs(self, path):
        return self._live().file_runs(path)

    def free_runs(self):
        return self._live().free_runs()

    @property
    def why_unknown(self):
        return self.inner.why_unknown

    def repairs(self):
        return self._live().repairs()

    def repair(self):
        self._live().repair()

    def sync(self):
        self._live().sync()

    def close(self):
        self.inner.close()
