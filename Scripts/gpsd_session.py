"""A real gpsd started with gpsd's own test harness (gps.fake, what gpsfake runs), as
Scripts/simulate and Scripts/corpus-check start one: not a script, a module they import.

What the harness leaves to its caller, done once here:
- gpsd's control socket goes in a directory of our own (mode 0700), not at gps.fake's
  /tmp/gpsfake-PID.sock, where any local user may have put one first and a killed gpsd leaves its
  own; the directory is removed when the session stops;
- gpsd's stderr (it says this machine has no D-Bus) goes to a file, for the message of a start
  that failed, not to the caller's terminal;
- a receiver is added only once the control socket takes a connection (gpsd binds it, then
  listens; gps.fake adds a receiver over it, and does nothing, silently, when it does not connect);
- the System V shared memory gpsd makes and never removes is removed when it stops (a few
  hundred gpsd of a test run would use up the system's 4,096 segments).
"""
import os
import shutil
import socket
import subprocess
import tempfile
import time

import gps.fake as harness


def free_port():
    """A free loopback TCP port (bound once, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Session:
    """One gpsd of gps.fake's; `harness` is the gps.fake TestSession (for its run loop, its clients
    and its reporter)."""

    def __init__(self, port, options="-n", prefix=None, timeout=0):
        self.harness = harness.TestSession(prefix=prefix, options=options, port=port, timeout=timeout)
        self.private = tempfile.mkdtemp(prefix="gpsd-session-")
        self.harness.daemon.control_socket = os.path.join(self.private, "control.sock")
        self.log = tempfile.TemporaryFile()
        saved = os.dup(2)
        os.dup2(self.log.fileno(), 2)
        try:
            self.harness.spawn()
            # Kept: the harness forgets it when its run loop ends.
            self.process = self.harness.daemon.process
        except BaseException:
            shutil.rmtree(self.private, ignore_errors=True)
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)

    def said(self):
        """The end of what gpsd wrote on its stderr, and whether it still runs."""
        self.log.seek(0)
        words = self.log.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        daemon = self.harness.daemon
        alive = daemon is not None and daemon.is_alive()
        return "gpsd %s; it said: %s" % ("runs" if alive else "is gone", " | ".join(words) or "nothing")

    def add(self, track, deadline, **options):
        """Adds a receiver replaying `track` (gps_add's `options`: speed, pred, oneshot) once the
        control socket takes a connection; whether it did by `deadline` (time.monotonic()): when
        not, nothing is added (gps.fake would add nothing, and say nothing)."""
        while self.harness.daemon is not None and self.harness.daemon.is_alive():
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                    probe.connect(self.harness.daemon.control_socket)
            except OSError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.02)
                continue
            self.harness.gps_add(track, **options)
            return True
        return False

    def stop(self):
        """Stops gpsd, removes its shared memory and the private directory (also when gpsd is
        gone already: at its start, or at the end of the harness's run loop)."""
        try:
            self.harness.cleanup()
            if self.process is not None:
                remove_shared_memory(self.process)
        finally:
            shutil.rmtree(self.private, ignore_errors=True)


def remove_shared_memory(process):
    """Removes the System V shared memory segments `process` (a gpsd) made and left: its NTP
    segments and its export, which it never removes."""
    try:
        process.wait(timeout=5)
        with open("/proc/sysvipc/shm") as table:
            rows = [line.split() for line in table.readlines()[1:]]
    except (OSError, subprocess.TimeoutExpired):
        return
    for row in rows:
        # key shmid perms size cpid lpid nattch ...
        if len(row) > 6 and row[4] == str(process.pid) and row[6] == "0":
            subprocess.run(["ipcrm", "-m", row[1]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
