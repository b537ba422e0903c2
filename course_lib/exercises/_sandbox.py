"""Where a submission's kernel runs: a bubblewrap sandbox, or (on request) a weaker mode.

The grader runs every submission's kernel in a sandbox made of Linux namespaces with
Debian's ``bubblewrap`` (``bwrap``; ``apt-get install bubblewrap``), never Docker. It is
built so that it holds when the grader runs as root (as it does on most course servers
and in containers) as well as when it runs as a normal user:

* **who**: the kernel never runs as root. Run by a normal user, bwrap puts the kernel in
  a new user namespace (``--unshare-user``) as that user, without capabilities, and
  forbids further user namespaces inside (``--disable-userns``). Run by root, bwrap
  builds the sandbox with privileges and :mod:`course_lib.exercises._drop` then makes
  the kernel a fresh unprivileged uid (:func:`sandbox_uid`, from a range no account
  uses, one per notebook), with an empty capability bounding set and ``no_new_privs``.
  Either way ``/proc/sys`` is read-only and every bound system folder too, so nothing
  like ``kernel.core_pattern`` can be set.
* **processes**: a new PID namespace. The kernel and anything it starts (a detached
  ``sleep``, a double fork with ``setsid``) live in it; when the grader stops the
  kernel, bwrap's init dies and takes every process of the namespace with it.
  If the grader itself dies, the guard that started bwrap (:data:`_GUARD`) kills
  bwrap's whole process group, a sandbox still being set up included, and bwrap's
  ``--die-with-parent`` takes the namespace with it. ``RLIMIT_NPROC`` caps
  the notebook's processes and threads together (exactly, as root: the uid is the
  notebook's own; as a normal user, above what the account already runs).
* **memory and disk**: ``RLIMIT_AS`` caps each process (at the limit plus
  :data:`~course_lib.exercises._kernel.ADDRESS_HEADROOM_MB` of address space reserved
  and never touched, so that a 10 GB allocation fails at once), and the grader's watchdog
  (:func:`notebook_memory`) stops the notebook when all its processes together hold
  more than the limit. The scratch folder ``/sandbox`` is a tmpfs of
  :data:`SCRATCH_MB` and ``/tmp`` one of :data:`TMP_MB`: nothing a notebook writes
  reaches the host's disk, and it is gone with the notebook.
* **network**: a new network namespace with only a loopback device; the kernel talks
  to the grader over ZMQ's ``ipc`` transport, unix sockets in a folder bound into the
  sandbox (:attr:`NotebookSandbox.ipc`, watched for size).
* **files**: an empty, read-only root with read-only binds of what Python needs
  (``/usr``, the ``/lib`` folders, a few files of ``/etc``, the interpreter's
  ``sys.base_prefix`` and the venv's ``sys.prefix``); a copy of the ``course_lib``
  package, made once per batch and first on ``PYTHONPATH``; a read-only copy of
  ``data/``; a fresh ``/proc`` and a minimal, read-only ``/dev``. The instructor's
  repository, the answer key, the class secret, the submissions and the gradebook's
  folder are never visible: where one of them lies inside a bound folder (a clone in
  ``/usr/local/src``, a venv inside the repository) it is covered by an empty,
  read-only mount, and :meth:`NotebookSandbox.readable` checks from inside, once per
  batch, that none of them can be read; the grader refuses to run otherwise.
* **IPC and host name**: new IPC and UTS namespaces.

``sandbox="none"`` is the weaker mode that must be asked for: the kernel runs in its
own session and process group (killed at the end), with the same rlimits, in a
temporary folder, but with the grader's file system (the answer key included) and
network. A process that leaves the kernel's process tree (a double fork) survives it.
"""

from __future__ import annotations

import compileall
import importlib.util
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["MODES", "SCRATCH_MB", "TMP_MB", "NotebookSandbox", "SandboxUnavailable",
           "batch_files", "notebook_memory", "notebook_processes", "probe_bwrap",
           "protected_paths", "sandbox_uid"]

MODES = ("bwrap", "none")
_PACKAGE = Path(__file__).resolve().parents[1]  # course_lib/
_PROJECT = _PACKAGE.parent
_DROP = Path(__file__).resolve().with_name("_drop.py")
#: Files of /etc that Python, numpy and matplotlib may read (never /etc/shadow & co.).
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "passwd",
        "group", "nsswitch.conf", "hosts", "host.conf", "mime.types", "ssl",
        "ca-certificates", "fonts", "alternatives", "matplotlibrc")
#: Inside paths of the sandbox.
INSIDE_SCRATCH = "/sandbox"
INSIDE_LIB = "/opt/grader/lib"
INSIDE_DROP = "/opt/grader/drop.py"
INSIDE_MPL = "/opt/grader/mpl"
#: Sizes of the sandbox's two writable folders (tmpfs mounts), in MB.
SCRATCH_MB = 256
TMP_MB = 16
#: The uids a root grader gives its kernels: above every account and every subuid range
#: in common use (containers take 100000-165535, systemd's dynamic users 61184-65519),
#: below 2**31.
UID_BASE = 2_000_000_000
UID_SPAN = 100_000_000
#: The sandbox's parent (``python -I -S -c _GUARD GRADER_PID bwrap ...``): it starts bwrap
#: in its own process group and waits for it; when the grader dies (``PR_SET_PDEATHSIG``,
#: checked against a grader that died before it was set) it kills the whole group.
#: bwrap's ``--die-with-parent`` alone leaves a window: a grader killed while bwrap sets
#: the sandbox up left bwrap's second process, not yet bound to its parent, waiting
#: forever (seen under load, as root). Every process of the group goes with the guard,
#: set up or not; the kernel inside has its own session, and dies with bwrap's init.
_GUARD = ("import ctypes, os, signal, sys\n"
          "if os.getpgid(0) != os.getpid():\n"
          "    os.setpgid(0, 0)\n"  # a group of its own (the kernel manager made a session)
          "signal.signal(signal.SIGTERM, lambda *_: os.killpg(0, signal.SIGKILL))\n"
          "ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0)\n"  # PR_SET_PDEATHSIG
          "if os.getppid() != int(sys.argv[1]):\n"
          "    os._exit(1)\n"
          "pid = os.fork()\n"
          "if pid == 0:\n"
          "    os.execv(sys.argv[2], sys.argv[2:])\n"
          "code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"
          "if code < 0:\n"  # bwrap killed by a signal: so is its guard, as the grader sees
          "    signal.signal(-code, signal.SIG_DFL)\n"
          "    os.kill(os.getpid(), -code)\n"
          "os._exit(code & 255)\n")
#: Size of the empty tmpfs that covers a protected folder inside a bound one.
_MASK_BYTES = 4096


class SandboxUnavailable(RuntimeError):
    """bwrap is missing, cannot create the namespaces, or cannot hide what it must."""


def _bwrap() -> str | None:
    return shutil.which("bwrap")


def _as_root() -> bool:
    return os.geteuid() == 0


def sandbox_uid() -> int | None:
    """A fresh unprivileged uid for one notebook's kernel when the grader is root, else None.

    >>> uid = sandbox_uid()
    >>> uid is None or UID_BASE <= uid < UID_BASE + UID_SPAN
    True
    """
    if not _as_root():
        return None
    return UID_BASE + secrets.randbelow(UID_SPAN)


def _system_binds() -> list[str]:
    """bwrap arguments for /usr, the /lib folders, /bin, /sbin and a few /etc files."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in _ETC:
        path = Path("/etc") / name
        if path.exists():
            args += ["--ro-bind", str(path), str(path)]
    return args


#: What ``import course_key`` finds in the sandbox where a key is installed into a bound
#: site-packages folder (an empty folder would import as a namespace package).
_KEY_MASK = ('raise ImportError("the answer key (course_key) is not available in the '
             'grader\'s sandbox")\n')


def key_mask(root: Path) -> Path:
    """A folder whose ``__init__.py`` refuses the import, bound over an installed key."""
    mask = root / "keymask"
    mask.mkdir(exist_ok=True)
    (mask / "__init__.py").write_text(_KEY_MASK, encoding="utf-8")
    mask.chmod(0o755)
    (mask / "__init__.py").chmod(0o644)
    return mask


def _python_dirs() -> list[tuple[str, str]]:
    """(source, destination) of the interpreter's prefix and the venv (outside /usr)."""
    pairs: list[tuple[str, str]] = []
    done: set[str] = set()
    for prefix in (sys.base_prefix, sys.prefix, str(Path(sys.executable).parent.parent)):
        real = str(Path(prefix).resolve())
        for dest in (prefix, real):
            if dest in done or dest == "/usr" or dest.startswith("/usr/"):
                continue
            done.add(dest)
            pairs.append((real, dest))
    return pairs


def _python_binds(mask: Path | None = None) -> list[str]:
    """Read-only binds of the interpreter's prefix and the venv (when outside /usr).

    A ``course_key`` package installed into a bound site-packages folder is covered by
    ``mask`` (:func:`key_mask`; an empty tmpfs when None), its metadata by an empty tmpfs.
    """
    args: list[str] = []
    for real, dest in _python_dirs():
        args += ["--ro-bind", real, dest]
    # A reference package installed into the environment (the instructors' key, when
    # not an editable install) is hidden.
    for site in _site_dirs():
        for entry in sorted(site.glob("course_key*")):
            if entry.name == "course_key" and entry.is_dir() and mask is not None:
                args += ["--ro-bind", str(mask), str(entry)]
            elif entry.is_dir():
                args += ["--tmpfs", str(entry)]
            else:
                args += ["--ro-bind", "/dev/null", str(entry)]
    return args


def _site_dirs() -> list[Path]:
    import site

    return [Path(p) for p in site.getsitepackages() if Path(p).is_dir()]


def protected_paths(extra: Iterable[Path | str] = ()) -> list[Path]:
    """What a kernel must never read: the repository, the answer key, and ``extra``.

    ``extra`` holds the batch's own secrets: the class secret's file, the submissions
    folder, the gradebook's folder. Paths are resolved; missing ones are dropped.
    """
    paths = [_PROJECT, _PROJECT / "key"]
    try:
        spec = importlib.util.find_spec("course_key")
    except (ImportError, ValueError):
        spec = None
    if spec is not None:
        for location in spec.submodule_search_locations or []:
            paths.append(Path(location))
    paths += [Path(p) for p in extra]
    out: list[Path] = []
    for path in paths:
        try:
            real = path.resolve()
        except OSError:
            continue
        if real.exists() and real not in out:
            out.append(real)
    return out


def _inside(path: Path, roots: Iterable[str]) -> bool:
    """Whether ``path`` is one of ``roots`` or lies below one."""
    return any(path == Path(r) or Path(r) in path.parents for r in roots)


def _bound_sources(args: Sequence[str]) -> list[str]:
    return [args[i + 2] for i, a in enumerate(args) if a in ("--ro-bind", "--bind")]


def _masks(protect: Sequence[Path], system: Sequence[str]) -> tuple[list[str], list[str]]:
    """bwrap arguments that cover each protected path visible through a bind.

    Returns (the masks to place before the interpreter's binds: protected folders that
    hold a bound venv, such as a repository with ``.venv`` under ``/usr/local/src``; the
    masks to place last: every other protected path inside a bound folder). Folders are
    covered by a tiny tmpfs (remounted read-only by :func:`_remounts`), files by
    ``/dev/null``.
    """
    py_dests = [dest for _, dest in _python_dirs()]
    bound = [*_bound_sources(system), *py_dests, "/etc"]
    early: list[str] = []
    late: list[str] = []
    for path in protect:
        if not _inside(path, bound):
            continue
        target = early if any(_inside(Path(d), [str(path)]) for d in py_dests) else late
        if path.is_dir():
            target += ["--size", str(_MASK_BYTES), "--tmpfs", str(path)]
        else:
            target += ["--ro-bind", "/dev/null", str(path)]
    return early, late


_MOUNTS = {"--ro-bind": 2, "--bind": 2, "--tmpfs": 1, "--dir": 1, "--proc": 1, "--dev": 1,
           "--symlink": 2}


def _with_parents(args: Sequence[str]) -> list[str]:
    """``args`` with ``--perms 0755 --dir P`` before each mount whose parent folders P
    the sandbox's root lacks: bwrap run as root makes them mode 0700, which the
    kernel's unprivileged uid could not walk through."""
    out: list[str] = []
    mounted: list[str] = []  # bound folders so far: below one, folders exist
    made: set[str] = {"/"}
    i = 0
    while i < len(args):
        arg = args[i]
        n = _MOUNTS.get(arg)
        if n is None:
            step = 2 if arg in ("--size", "--perms", "--setenv", "--remount-ro", "--chdir",
                                "--hostname", "--cap-add", "--cap-drop", "--chmod") else 1
            if arg in ("--setenv", "--chmod"):
                step = 3
            out += args[i:i + step]
            i += step
            continue
        dest = args[i + n]
        lead: list[str] = []
        for parent in reversed(Path(dest).parents):
            p = str(parent)
            if p in made:
                continue
            if any(p == m or Path(m) in parent.parents for m in mounted):
                continue  # inside a bound folder: the folder is the host's own
            lead += ["--perms", "0755", "--dir", p]
            made.add(p)
        # a --size or --perms just before this mount belongs to it, not to the --dir
        if out and out[-2:-1] and out[-2] in ("--size", "--perms"):
            held = out[-2:]
            del out[-2:]
            out += lead + held
        else:
            out += lead
        out += args[i:i + n + 1]
        if arg in ("--ro-bind", "--bind", "--proc", "--dev"):
            mounted.append(dest)
        if arg != "--dir":
            made = {m for m in made if Path(dest) not in Path(m).parents}
        made.add(dest)
        i += n + 1
    return out


def _remounts(masks: Sequence[str]) -> list[str]:
    return [arg for i, a in enumerate(masks) if a == "--tmpfs"
            for arg in ("--remount-ro", masks[i + 1])]


_PROBED: dict[tuple[str, bool], str | None] = {}


def probe_bwrap() -> str | None:
    """None when bwrap can build the sandbox here, else why not (one sentence).

    It starts the interpreter (without ``site``, which is quick) in a sandbox like a
    kernel's, as the unprivileged uid when the grader is root; the answer is remembered
    per bwrap executable and privilege for the process.
    """
    exe = _bwrap()
    key = (exe or "", _as_root())
    if exe is not None and key in _PROBED:
        return _PROBED[key]
    why = _probe(exe)
    if exe is not None:
        _PROBED[key] = why
    return why


def _probe(exe: str | None) -> str | None:
    if exe is None:
        return ("bubblewrap (bwrap) is not installed: `apt-get install bubblewrap`, or "
                "pass --sandbox none for the weaker mode without file-system or network "
                "isolation")
    root = Path(tempfile.mkdtemp(prefix="grade-probe-"))
    try:
        root.chmod(0o755)
        box = NotebookSandbox("bwrap", root, root, None, protect=())
        inner = [sys.executable, "-I", "-S", "-c",
                 "import os; assert os.getuid() != 0 and os.geteuid() != 0"]
        proc = subprocess.run(box.argv(inner), capture_output=True, text=True, timeout=60,
                              cwd=str(box.host_cwd))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not run ({type(exc).__name__}: {exc})"
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if proc.returncode != 0:
        why = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else (
            f"exit code {proc.returncode}")
        need = ("root's right to create namespaces and change uids (a container must "
                "allow unshare(2) and setuid; it does not need user namespaces then)"
                if _as_root() else
                "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, "
                "or kernel.apparmor_restrict_unprivileged_userns=0)")
        return (f"bwrap cannot create the sandbox here ({why}); it needs {need}. Pass "
                "--sandbox none for the weaker mode without file-system or network "
                "isolation")
    return None


def _namespace_args() -> list[str]:
    args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session",
            "--hostname", "grader"]
    if _as_root():
        # bwrap builds the sandbox with privileges and keeps only what _drop.py needs
        # to give the kernel an unprivileged uid; _drop.py then empties everything.
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                 "--cap-add", "CAP_SETPCAP", "--cap-add", "CAP_CHOWN"]
    else:
        args = ["--unshare-user", "--disable-userns", *args, "--cap-drop", "ALL"]
    return args


def batch_files(root: Path) -> tuple[Path, Path | None]:
    """Copy the ``course_lib`` package and ``data/`` into ``root``, once per batch.

    Returns (the folder to put first on ``PYTHONPATH``, the copy of ``data/`` or None).
    The package is byte-compiled in the copy so each kernel starts without compiling.
    Everything is world-readable (the unprivileged uid of a root grader reads it) and
    nothing is writable but by the grader.
    """
    root.chmod(0o755)
    lib = root / "lib"
    shutil.copytree(_PACKAGE, lib / _PACKAGE.name,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    compileall.compile_dir(str(lib), quiet=2, workers=1)
    data = _PROJECT / "data"
    copy = None
    if data.is_dir():
        copy = root / "data"
        shutil.copytree(data, copy)
    # matplotlib's font list, built once here instead of in every kernel's fresh home
    mpl = root / "mpl"
    mpl.mkdir()
    try:
        subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"],
                       env={"MPLCONFIGDIR": str(mpl), "PATH": os.environ.get("PATH", "")},
                       capture_output=True, timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired):
        pass
    for folder in (lib, copy, mpl):
        if folder is not None:
            _world_readable(folder)
    return lib, copy


def _world_readable(folder: Path) -> None:
    for dirpath, _dirs, filenames in os.walk(folder):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)


class NotebookSandbox:
    """The sandbox of one notebook: an ipc folder, the kernel's command and environment.

    ``mode`` is ``"bwrap"`` or ``"none"``; ``lib`` and ``data`` come from
    :func:`batch_files`; ``protect`` from :func:`protected_paths`. In the sandbox the
    kernel works in ``/sandbox/notebooks`` (so ``../data/`` works as in the repository),
    with ``HOME`` in ``/sandbox/home``; in the weaker mode those folders are in a
    temporary folder of the host.
    """

    def __init__(self, mode: str, root: Path, lib: Path, data: Path | None, *,
                 protect: Sequence[Path] = (), scratch_mb: int = SCRATCH_MB) -> None:
        if mode not in MODES:
            raise ValueError(f"sandbox must be one of {MODES}, got {mode!r}")
        self.mode = mode
        self.lib = lib
        self.data = data
        self.protect = list(protect)
        self.scratch_mb = scratch_mb
        self.uid = sandbox_uid() if mode == "bwrap" else None
        self.root = root
        # Short paths: a unix socket's path is limited to 107 bytes.
        self.ipc = Path(tempfile.mkdtemp(prefix="k", dir=root))
        os.chmod(self.ipc, 0o700)
        if self.uid is not None:
            os.chown(self.ipc, self.uid, self.uid)
        self.scratch: Path | None = None
        if mode == "none":
            self.scratch = Path(tempfile.mkdtemp(prefix="s", dir=root))
            for sub in ("notebooks", "home", "tmp"):
                (self.scratch / sub).mkdir()
            mpl = root / "mpl"
            if mpl.is_dir():
                shutil.copytree(mpl, self.scratch / "home" / ".matplotlib")
            if data is not None:
                shutil.copytree(data, self.scratch / "data")

    @property
    def connection_file(self) -> Path:
        return self.ipc / "kernel.json"

    @property
    def ip(self) -> str:
        """The ZMQ ipc "address": sockets are ``<ip>-<n>`` in the ipc folder."""
        return str(self.ipc / "z")

    @property
    def host_cwd(self) -> Path:
        """The folder the kernel's command starts in, on the host."""
        return self.ipc if self.scratch is None else self.scratch / "notebooks"

    def _inside(self, sub: str) -> str:
        base = INSIDE_SCRATCH if self.scratch is None else str(self.scratch)
        return f"{base}/{sub}"

    def env(self) -> dict[str, str]:
        """The kernel's whole environment (nothing of the grader's is passed on)."""
        lib = INSIDE_LIB if self.mode == "bwrap" else str(self.lib)
        env = {
            "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "HOME": self._inside("home"), "TMPDIR": self._inside("tmp"),
            "MPLCONFIGDIR": self._inside("home/.matplotlib"), "PYTHONPATH": lib,
            "PYTHONNOUSERSITE": "1", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            # One thread per kernel (parallel kernels share the cores), few malloc arenas
            # (the address-space cap counts reserved arenas), figures off-screen.
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "MALLOC_ARENA_MAX": "2", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            "MPLBACKEND": "agg", "JUPYTER_PLATFORM_DIRS": "1",
        }
        if self.mode == "bwrap" and (self.root / "mpl").is_dir():
            env["COURSE_LIB_MPL_CACHE"] = INSIDE_MPL  # copied into HOME by the kernel
        return env

    def argv(self, inner: list[str]) -> list[str]:
        """The command that starts ``inner`` (the kernel) in this sandbox."""
        if self.mode == "none":
            return list(inner)
        exe = _bwrap()
        if exe is None:
            raise SandboxUnavailable("bwrap is not installed")
        args = [exe, *_namespace_args(), "--clearenv"]  # after the guard (see _GUARD)
        for key, value in self.env().items():
            args += ["--setenv", key, value]
        system = _system_binds()
        early, late = _masks(self.protect, system)
        args += system + early
        args += ["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys",
                 "--dev", "/dev", "--remount-ro", "/dev",
                 "--size", str(self.scratch_mb * 1024 * 1024), "--tmpfs", INSIDE_SCRATCH,
                 "--size", str(TMP_MB * 1024 * 1024), "--tmpfs", "/tmp"]
        for sub in ("notebooks", "home", "tmp"):  # a root grader's: chowned by _drop.py
            args += ["--dir", f"{INSIDE_SCRATCH}/{sub}"]
        # after /tmp: an interpreter or venv that lives under /tmp (a clone there, as
        # CI may make) is bound on top of the sandbox's own /tmp, never hidden by it
        args += _python_binds(key_mask(self.root))
        args += ["--ro-bind", str(self.lib), INSIDE_LIB,
                 "--ro-bind", str(_DROP), INSIDE_DROP]
        mpl = self.root / "mpl"
        if mpl.is_dir():
            args += ["--ro-bind", str(mpl), INSIDE_MPL]
        if self.data is not None:
            args += ["--ro-bind", str(self.data), f"{INSIDE_SCRATCH}/data"]
        args += ["--bind", str(self.ipc), str(self.ipc)]
        args += late + _remounts(early + late)
        args += ["--remount-ro", "/", "--chdir", f"{INSIDE_SCRATCH}/notebooks", "--"]
        if self.uid is not None:
            inner = [sys.executable, "-I", "-S", INSIDE_DROP, str(self.uid), "--", *inner]
        guard = [sys.executable, "-I", "-S", "-c", _GUARD, str(os.getpid())]
        return guard + _with_parents(args) + list(inner)

    def readable(self, paths: Sequence[Path] | None = None) -> list[str]:
        """Which of ``paths`` (default: the protected ones) a kernel could read.

        A probe runs in this sandbox as the kernel's uid and tries to open files of each
        path (the file itself; a few regular files of a folder, found on the host). An
        empty list is the only good answer.
        """
        paths = self.protect if paths is None else list(paths)
        if self.mode == "none" or not paths:
            return []
        samples: list[str] = []
        owner: dict[str, str] = {}
        for path in paths:
            for sample in _sample_files(Path(path)):
                samples.append(sample)
                owner[sample] = str(path)
        probe = ("import sys\n"
                 "for p in sys.argv[1:]:\n"
                 "    try:\n"
                 "        open(p, 'rb').read(1); print(p)\n"
                 "    except OSError:\n"
                 "        pass\n")
        cmd = self.argv([sys.executable, "-I", "-S", "-c", probe, *samples])
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                              cwd=str(self.host_cwd))
        if proc.returncode != 0:
            raise SandboxUnavailable("the sandbox's self-test did not run: "
                                     + (proc.stderr.strip()[-300:] or str(proc.returncode)))
        seen = []
        for line in proc.stdout.splitlines():
            where = owner.get(line.strip())
            if where is not None and where not in seen:
                seen.append(where)
        return seen

    def processes(self, pid: int | None) -> list[Any]:
        """The live processes of this notebook (see :func:`notebook_processes`)."""
        return notebook_processes(pid, self.uid)

    def ipc_bytes(self) -> int:
        """Bytes of regular files in the ipc folder (the kernel's only host-side write)."""
        total = 0
        for dirpath, _, filenames in os.walk(self.ipc):
            for name in filenames:
                try:
                    total += os.lstat(os.path.join(dirpath, name)).st_size
                except OSError:
                    pass
        return total

    def cleanup(self) -> None:
        shutil.rmtree(self.ipc, ignore_errors=True)
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


def _sample_files(path: Path, count: int = 6) -> list[str]:
    """The file itself, or a few regular files of a folder (its own first, then below)."""
    if path.is_file():
        return [str(path)]
    found: list[str] = []
    try:
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames[:] = sorted(d for d in dirnames if d not in (".venv", "venv", ".git"))
            for name in sorted(filenames):
                full = os.path.join(dirpath, name)
                if os.path.isfile(full) and not os.path.islink(full):
                    found.append(full)
                    if len(found) >= count:
                        return found
    except OSError:
        pass
    return found


def notebook_processes(pid: int | None, uid: int | None) -> list[Any]:
    """The processes of one notebook: every process of its own ``uid`` (a root grader),
    else ``pid`` (the command that started the kernel) and its descendants."""
    import psutil

    if uid is not None:
        found = []
        for proc in psutil.process_iter(["uids"]):
            uids = proc.info.get("uids")
            if uids is not None and uid in (uids.real, uids.effective):
                found.append(proc)
        return found
    if pid is None:
        return []
    try:
        parent = psutil.Process(pid)
        return [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return []


def _pss(pid: int) -> int | None:
    """Proportional set size in bytes (shared pages split between their users)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def notebook_memory(processes: Sequence[Any]) -> int:
    """Bytes that the processes hold together: the sum of their PSS (RSS where the
    kernel does not report PSS), so pages shared after a fork count once."""
    import psutil

    total = 0
    for proc in processes:
        size = _pss(proc.pid)
        if size is None:
            try:
                size = proc.memory_info().rss
            except psutil.Error:
                size = 0
        total += size
    return total
