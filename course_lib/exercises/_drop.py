"""Run as root inside the sandbox: give up root for good, then start the kernel.

``python -I -S _drop.py UID -- COMMAND...``: the grader runs as root (as it does on most
course servers and in containers), so bubblewrap builds the sandbox as root, with no user
namespace, and keeps only the capabilities this step needs (CAP_SETUID, CAP_SETGID,
CAP_SETPCAP, CAP_CHOWN). Before anything of a student's runs, it

1. hands the scratch folders (``/sandbox`` and ``/tmp``, fresh tmpfs mounts) to ``UID``,
2. empties the capability bounding set and sets ``no_new_privs`` (a set-uid program
   inside cannot give any capability back),
3. drops every group and becomes ``UID`` (real, effective and saved): an unprivileged
   uid that no account on the host uses, fresh for each notebook, so that the kernel's
   RLIMIT_NPROC counts exactly this notebook's processes and threads,

and then ``exec``\\ s the kernel. It runs with ``-I -S`` (no site, no environment), so
it imports only the standard library, and it refuses to go on if any step failed.
"""

from __future__ import annotations

import ctypes
import os
import sys

PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
SCRATCH = ("/sandbox", "/sandbox/notebooks", "/sandbox/home", "/sandbox/tmp", "/tmp")


def drop(uid: int) -> None:
    """Become ``uid`` with no capability, no group and no way back; SystemExit if not."""
    libc = ctypes.CDLL(None, use_errno=True)
    for path in SCRATCH:
        os.makedirs(path, exist_ok=True)
        os.chown(path, uid, uid)
    with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as fh:
        last = int(fh.read())
    for cap in range(last + 1):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise SystemExit(f"sandbox: cannot drop capability {cap} "
                             f"(errno {ctypes.get_errno()})")
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise SystemExit("sandbox: cannot set no_new_privs")
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _clear_capabilities(libc)
    if os.getresuid() != (uid, uid, uid) or os.getgroups():
        raise SystemExit("sandbox: the uid was not dropped")
    with open("/proc/self/status", encoding="ascii") as fh:
        status = dict(line.split(":", 1) for line in fh.read().splitlines() if ":" in line)
    for key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        if int(status[key].strip(), 16) != 0:
            raise SystemExit(f"sandbox: {key} is not empty after the drop")


def _clear_capabilities(libc: ctypes.CDLL) -> None:
    """capset(2) with every set empty: also the inheritable set, which setuid keeps."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two Data structs
    data = (Data * 2)()
    if libc.capset(ctypes.byref(header), ctypes.byref(data)) != 0:
        raise SystemExit(f"sandbox: capset failed (errno {ctypes.get_errno()})")


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[1] != "--":
        raise SystemExit("usage: _drop.py UID -- COMMAND...")
    uid = int(argv[0])
    if uid <= 0:
        raise SystemExit("sandbox: refusing to run as root")
    drop(uid)
    os.execv(argv[2], argv[2:])


if __name__ == "__main__":  # pragma: no cover - runs inside the sandbox
    main(sys.argv[1:])
