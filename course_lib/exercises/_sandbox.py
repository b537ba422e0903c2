"""Where a submission's kernel runs: a bubblewrap sandbox, or (on request) a weaker mode.

The grader runs every submission's kernel in a sandbox made of Linux namespaces with
Debian's ``bubblewrap`` (``bwrap``; ``apt-get install bubblewrap``), never Docker:

* **processes**: a new PID namespace. The kernel and anything it starts (a detached
  ``sleep``, a double fork with ``setsid``) live in it; when the grader stops the
  kernel, bwrap's init (PID 1 of the namespace) dies and the kernel kills every
  process left in the namespace. ``--die-with-parent`` does the same if the grader
  itself dies. ``--new-session`` keeps the kernel off the grader's terminal.
* **network**: a new network namespace with only a loopback device; the kernel talks
  to the grader over ZMQ's ``ipc`` transport, unix sockets in a folder bound into the
  sandbox (:attr:`NotebookSandbox.ipc`).
* **files**: an empty root with read-only binds of what Python needs (``/usr``, the
  ``/lib`` folders, a few files of ``/etc``, the interpreter's ``sys.base_prefix`` and
  the venv's ``sys.prefix``); a copy of the ``course_lib`` package, made once per
  batch and first on ``PYTHONPATH`` (the repository is never bound: the venv's
  editable-install finder points into it, and there it finds nothing); a read-only
  copy of ``data/``; a scratch folder, the only writable place (``HOME``, ``TMPDIR``,
  ``MPLCONFIGDIR`` and ``/tmp`` are in it); a fresh ``/proc`` and a minimal, read-only
  ``/dev`` (``/dev/null``, ``/dev/urandom``, ...; no ``/dev/shm`` to fill the memory).
  The submissions folder, the gradebook's folder, other submissions and the grader's
  environment variables are not there.
* **IPC and host name**: new IPC and UTS namespaces; all capabilities dropped.

Limits set inside, before ipykernel starts (:mod:`course_lib.exercises._kernel`): the
address space (``RLIMIT_AS``) and the number of processes and threads it may start
(``RLIMIT_NPROC``, set above what the grading account already runs; Linux does not
apply it to root, so as root only the time limit stops a fork bomb; the PID namespace
still ends every process with the notebook).

``sandbox="none"`` is the weaker mode that must be asked for: the kernel runs in its
own session and process group (killed at the end), with the same rlimits, in a
temporary folder, but with the grader's file system (the answer key included) and
network. A process that leaves the kernel's process tree (a double fork) survives it.
"""

from __future__ import annotations

import compileall
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["MODES", "NotebookSandbox", "SandboxUnavailable", "batch_files", "probe_bwrap"]

MODES = ("bwrap", "none")
_PACKAGE = Path(__file__).resolve().parents[1]  # course_lib/
_PROJECT = _PACKAGE.parent
#: Files of /etc that Python, numpy and matplotlib may read (never /etc/shadow & co.).
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "passwd",
        "group", "nsswitch.conf", "hosts", "host.conf", "mime.types", "ssl",
        "ca-certificates", "fonts", "alternatives", "matplotlibrc")
#: Inside paths of the sandbox.
INSIDE_SCRATCH = "/sandbox"
INSIDE_LIB = "/opt/grader/lib"


class SandboxUnavailable(RuntimeError):
    """bwrap is missing or cannot create the namespaces."""


def _bwrap() -> str | None:
    return shutil.which("bwrap")


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
    return mask


def _python_binds(mask: Path | None = None) -> list[str]:
    """Read-only binds of the interpreter's prefix and the venv (when outside /usr).

    A ``course_key`` package installed into a bound site-packages folder is covered by
    ``mask`` (:func:`key_mask`; an empty tmpfs when None), its metadata by an empty tmpfs.
    """
    args: list[str] = []
    done: set[str] = set()
    for prefix in (sys.base_prefix, sys.prefix, str(Path(sys.executable).parent.parent)):
        real = str(Path(prefix).resolve())
        for dest in (prefix, real):
            if dest in done or dest == "/usr" or dest.startswith("/usr/"):
                continue
            done.add(dest)
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


_PROBED: dict[str, str | None] = {}


def probe_bwrap() -> str | None:
    """None when bwrap can build the sandbox here, else why not (one sentence).

    It starts the interpreter (without ``site``, which is quick) in a sandbox like a
    kernel's; the answer is remembered per bwrap executable for the process.
    """
    exe = _bwrap()
    if exe is not None and exe in _PROBED:
        return _PROBED[exe]
    why = _probe(exe)
    if exe is not None:
        _PROBED[exe] = why
    return why


def _probe(exe: str | None) -> str | None:
    if exe is None:
        return ("bubblewrap (bwrap) is not installed: `apt-get install bubblewrap`, or "
                "pass --sandbox none for the weaker mode without file-system or network "
                "isolation")
    cmd = [exe, *_namespace_args(), *_system_binds(), *_python_binds(),
           "--proc", "/proc", "--dev", "/dev", sys.executable, "-I", "-S", "-c", "pass"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not run ({type(exc).__name__}: {exc})"
    if proc.returncode != 0:
        why = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else (
            f"exit code {proc.returncode}")
        return (f"bwrap cannot create the sandbox here ({why}); it needs unprivileged "
                "user namespaces (sysctl kernel.unprivileged_userns_clone=1, or "
                "kernel.apparmor_restrict_unprivileged_userns=0) or root. Pass --sandbox "
                "none for the weaker mode without file-system or network isolation")
    return None


def _namespace_args() -> list[str]:
    args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session",
            "--hostname", "grader", "--cap-drop", "ALL"]
    if os.geteuid() != 0:
        args.insert(0, "--unshare-user")
    return args


def batch_files(root: Path) -> tuple[Path, Path | None]:
    """Copy the ``course_lib`` package and ``data/`` into ``root``, once per batch.

    Returns (the folder to put first on ``PYTHONPATH``, the copy of ``data/`` or None).
    The package is byte-compiled in the copy so each kernel starts without compiling.
    """
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
    return lib, copy


class NotebookSandbox:
    """The sandbox of one notebook: a scratch folder, an ipc folder, the kernel command.

    ``mode`` is ``"bwrap"`` or ``"none"``; ``lib`` and ``data`` come from
    :func:`batch_files`. The scratch folder holds ``notebooks/`` (the kernel's working
    folder, so ``../data/`` works as in the repository), ``home/`` and ``tmp/``.
    """

    def __init__(self, mode: str, root: Path, lib: Path, data: Path | None) -> None:
        if mode not in MODES:
            raise ValueError(f"sandbox must be one of {MODES}, got {mode!r}")
        self.mode = mode
        self.lib = lib
        self.data = data
        # Short paths: a unix socket's path is limited to 107 bytes.
        self.ipc = Path(tempfile.mkdtemp(prefix="k", dir=root))
        self.scratch = Path(tempfile.mkdtemp(prefix="s", dir=root))
        for sub in ("notebooks", "home", "tmp"):
            (self.scratch / sub).mkdir()
        mpl = root / "mpl"
        if mpl.is_dir():
            shutil.copytree(mpl, self.scratch / "home" / ".matplotlib")
        if mode == "none" and data is not None:
            shutil.copytree(data, self.scratch / "data")
        os.chmod(self.ipc, 0o700)

    @property
    def connection_file(self) -> Path:
        return self.ipc / "kernel.json"

    @property
    def ip(self) -> str:
        """The ZMQ ipc "address": sockets are ``<ip>-<n>`` in the ipc folder."""
        return str(self.ipc / "z")

    @property
    def host_cwd(self) -> Path:
        return self.scratch / "notebooks"

    def _inside(self, sub: str) -> str:
        base = INSIDE_SCRATCH if self.mode == "bwrap" else str(self.scratch)
        return f"{base}/{sub}"

    def env(self) -> dict[str, str]:
        """The kernel's whole environment (nothing of the grader's is passed on)."""
        lib = INSIDE_LIB if self.mode == "bwrap" else str(self.lib)
        tmp = "/tmp" if self.mode == "bwrap" else self._inside("tmp")
        return {
            "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "HOME": self._inside("home"), "TMPDIR": tmp,
            "MPLCONFIGDIR": self._inside("home/.matplotlib"), "PYTHONPATH": lib,
            "PYTHONNOUSERSITE": "1", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            # One thread per kernel (parallel kernels share the cores), few malloc arenas
            # (the address-space cap counts reserved arenas), figures off-screen.
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "MALLOC_ARENA_MAX": "2", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            "MPLBACKEND": "agg", "JUPYTER_PLATFORM_DIRS": "1",
        }

    def argv(self, inner: list[str]) -> list[str]:
        """The command that starts ``inner`` (the kernel) in this sandbox."""
        if self.mode == "none":
            return list(inner)
        exe = _bwrap()
        if exe is None:
            raise SandboxUnavailable("bwrap is not installed")
        args = [exe, *_namespace_args(), "--clearenv"]
        for key, value in self.env().items():
            args += ["--setenv", key, value]
        args += _system_binds()
        args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev",
                 "--bind", str(self.scratch), INSIDE_SCRATCH,
                 "--bind", str(self.scratch / "tmp"), "/tmp"]
        # after /tmp: an interpreter or venv that lives under /tmp (a clone there, as
        # CI may make) is bound on top of the sandbox's own /tmp, never hidden by it
        args += _python_binds(key_mask(self.ipc.parent))
        args += ["--ro-bind", str(self.lib), INSIDE_LIB]
        if self.data is not None:
            args += ["--ro-bind", str(self.data), f"{INSIDE_SCRATCH}/data"]
        args += ["--bind", str(self.ipc), str(self.ipc),
                 "--chdir", f"{INSIDE_SCRATCH}/notebooks", "--"]
        return args + list(inner)

    def cleanup(self) -> None:
        shutil.rmtree(self.ipc, ignore_errors=True)
        shutil.rmtree(self.scratch, ignore_errors=True)
