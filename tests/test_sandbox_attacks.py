"""A determined class against the grader: the attacks of issue 25, as root and as a user.

One batch of chapter 3 notebooks is graded with the command line. Each hostile notebook
holds the chapter's right answers, then an attack whose measure (how many forks, MB,
writes succeeded) becomes the answer ``auc_negated``, so the gradebook's feedback
("N is not right.") says how far the attack got. Beside them a plain right notebook must
keep full marks. After the batch nothing may be left on the host: no process of a
kernel's uid, no file, no changed setting.

The batch runs as the user running the tests (root in CI, as on most course servers),
and, when that is root, once more as an unprivileged user (``as_user``), for whom bwrap
builds the sandbox in a user namespace.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import nbformat
import psutil
import pytest
from nbformat.v4 import new_code_cell
from test_grade import need_bwrap

from course_lib.exercises import _sandbox

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "submissions"))
import fixture_notebooks as fixtures  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = 3
MEMORY_MB = 1024
NOTEBOOK_SECONDS = 25
#: The bomb's answer stalls its judge until this limit (the default is 10 s).
JUDGE_SECONDS = 3
#: The fork bomb forks up to this cap (the default is 256; every fork costs CPU time).
MAX_PROCS = 64
AS_ROOT = os.geteuid() == 0
#: An unprivileged account for the second run when the tests run as root.
USER_UID = 65534


def _attack(code: str) -> list:
    """The cells of an attack: it runs after the answers and sets ``auc_negated``."""
    return [new_code_cell(textwrap.dedent(code).strip() + "\n")]


def _notebook(attack: str, *, before_answers: bool = False):
    cells = _attack(attack)
    if before_answers:
        return fixtures.chapter_notebook(CHAPTER, extra=cells)
    nb = fixtures.chapter_notebook(CHAPTER)
    nb.cells += cells
    return nb


CORE = """
import os
done = 0
for path, data in [("/proc/sys/kernel/core_pattern", None), ("/proc/sys/kernel/hostname", None),
                   ("/proc/sysrq-trigger", b"")]:
    try:
        fd = os.open(path, os.O_WRONLY)
        if data is None:
            with open(path, "rb") as fh:
                data = fh.read()  # the value it has: nothing changes even if it works
        os.write(fd, data)
        done += 1
    except OSError:
        pass
for path in ["/sys/kernel/uevent_helper", "/proc/sys/vm/drop_caches"]:
    try:
        os.open(path, os.O_WRONLY); done += 1
    except OSError:
        pass
auc_negated = done
"""

FORKS = """
import os, time
children = 0
for _ in range(2000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(600)
        os._exit(0)
    children += 1
auc_negated = children
"""

DISK = """
import os
written = 0
block = b"x" * (1 << 20)
for folder in ("/sandbox/tmp", os.environ.get("HOME", "/sandbox/home"), "/tmp"):
    try:
        with open(os.path.join(folder, "fill-MARK"), "wb") as fh:
            for _ in range(2048):
                fh.write(block); fh.flush()
                written += 1
    except OSError:
        pass
auc_negated = written
"""

MEMORY = """
import subprocess, sys, time
hog = "b = b'\\x01' * (400 << 20); import time; time.sleep(120)"
children = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(4)]
time.sleep(60)
auc_negated = -1
"""

SECRETS = """
import os, sys
got = 0
sys.path.insert(0, REPO + "/key")
try:
    import course_key
    len(course_key.REGISTRY)  # reads every chapter's answers
    got += 1
except Exception:
    pass
for path in (REPO + "/Makefile", REPO + "/key/course_key/__init__.py", SECRET, SUBS, OUT):
    try:
        if os.path.isdir(path):
            got += len(os.listdir(path)) > 0
        else:
            open(path, "rb").read(1); got += 1
    except OSError:
        pass
auc_negated = got
"""

BOMB = """
import sympy
auc_table1 = sympy.Pow(sympy.Pow(sympy.Pow(10, 1000, evaluate=False), 1000, evaluate=False),
                       30, evaluate=False)
"""

SLEEPER = "import time\ntime.sleep(4)\n"


def _measure(row: dict) -> int | None:
    match = re.match(r"\s*(-?\d+) is not right", row["feedback"])
    return int(match.group(1)) if match else None


def _submissions(subs: Path, out: Path, secret: Path) -> None:
    subs.mkdir()
    names = {"CORE": CORE, "FORKS": FORKS, "DISK": DISK.replace("MARK", str(os.getpid())),
             "MEMORY": MEMORY}
    for name, code in names.items():
        nbformat.write(_notebook(code), subs / f"{name.lower()}.ipynb")
    snoop = (f"REPO, SECRET, SUBS, OUT = {str(ROOT)!r}, {str(secret)!r}, {str(subs)!r}, "
             f"{str(out)!r}\n" + SECRETS)
    nbformat.write(_notebook(snoop), subs / "secrets.ipynb")
    bomb = fixtures.chapter_notebook(CHAPTER)
    bomb.cells += _attack(BOMB)
    nbformat.write(bomb, subs / "bomb.ipynb")
    nbformat.write(fixtures.chapter_notebook(CHAPTER), subs / "honest.ipynb")
    # the answers of the first two exercises, then cells that each sleep 4 s: the
    # notebook's limit stops them, and the answers already given are judged
    sleepy = fixtures.chapter_notebook(CHAPTER)
    third = next(i for i, c in enumerate(sleepy.cells)
                 if c.cell_type == "markdown" and "{exercise}" in "".join(c.source)
                 and i > 10)
    sleepy.cells[third:third] = [new_code_cell(SLEEPER) for _ in range(12)]
    nbformat.write(sleepy, subs / "sleepy.ipynb")
    stored = sorted((ROOT / "notebooks").glob("13_*.ipynb"))
    if stored:  # the book's chapter 13, handed in as an answer to chapter 3
        shutil.copy(stored[0], subs / "mallory.ipynb")


def _batch_processes(tmp: Path) -> list:
    """Processes of this batch's kernels (their command names its folder), of any uid."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmd = " ".join(proc.info.get("cmdline") or [])
        if "course_lib.exercises._kernel" in cmd and str(tmp) in cmd:
            found.append(proc)
    return found


def _run_batch(tmp: Path, *, as_user: int | None) -> dict:
    subs, out_dir = tmp / "subs", tmp / "out"
    out_dir.mkdir()
    secret = out_dir / "class.secret"
    secret.write_text("a class secret nobody may read\n", encoding="utf-8")
    secret.chmod(0o600)
    _submissions(subs, out_dir, secret)
    out = out_dir / "grades.csv"
    core_before = Path("/proc/sys/kernel/core_pattern").read_text()
    tmp_before = set(os.listdir("/tmp"))
    cmd = [sys.executable, "-m", "course_lib.exercises.grade", str(subs), "--out", str(out),
           "--chapter", str(CHAPTER), "--timeout", "5", "--notebook-timeout",
           str(NOTEBOOK_SECONDS), "--memory-mb", str(MEMORY_MB), "--jobs", "2",
           "--judge-timeout", str(JUDGE_SECONDS), "--max-procs", str(MAX_PROCS),
           "--no-progress"]
    env = dict(os.environ, TMPDIR=str(tmp))  # the batch's folders, so its kernels are ours
    if as_user is not None:
        for path in (tmp, subs, out_dir):
            os.chown(path, as_user, as_user)
        for path in subs.iterdir():
            os.chown(path, as_user, as_user)
        secret.chmod(0o600)  # stays root's: the user's grader cannot read it either
        reach = [ROOT, tmp, *(Path(p) for pair in _sandbox._python_dirs() for p in pair)]
        cmd = _as_user_command(cmd, as_user, reach)
        env["HOME"] = str(tmp)
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env,
                          cwd=str(tmp))
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    table: dict[str, dict[str, dict]] = {}
    for row in rows:
        table.setdefault(row["student"], {})[row["exercise"]] = row
    time.sleep(1)
    return {"table": table, "stdout": proc.stdout, "elapsed": elapsed,
            "core_before": core_before, "tmp_before": tmp_before,
            "leftover": _batch_processes(tmp)}


def _blocked(path: Path) -> Path | None:
    """The first folder on the way to ``path`` (itself included) that others cannot enter."""
    for folder in [*reversed(path.parents), path]:
        if folder.is_dir() and not folder.stat().st_mode & 0o001:
            return folder
    return None


def _as_user_command(cmd: list[str], uid: int, reach: list[Path]) -> list[str]:
    """``cmd`` run as ``uid``, able to reach the folders ``reach``: bwrap (as root) shows
    the host's whole tree, with each folder on the way to them that others cannot enter
    (``/root`` of a pyenv interpreter, a clone made by ``mktemp -d``) replaced by an
    open one holding just what is needed; then ``setpriv`` becomes the user, who runs
    the grader as any user would."""
    bwrap = _sandbox._bwrap()
    assert bwrap is not None
    args = ["--dev-bind", "/", "/"]
    needed = sorted({p.resolve() for p in reach})
    for top in sorted({b for b in map(_blocked, needed) if b is not None}):
        args += ["--tmpfs", str(top)]  # mode 0755
        made = {top}
        for path in needed:
            if path == top:  # the folder itself is closed: its entries, one by one
                for entry in sorted(path.iterdir()):
                    args += ["--bind", str(entry), str(entry)]
            elif top in path.parents:
                for parent in reversed(path.parents):
                    if top in parent.parents and parent not in made:
                        args += ["--perms", "0755", "--dir", str(parent)]
                        made.add(parent)
                args += ["--bind", str(path), str(path)]
    return [bwrap, *args, "--", "setpriv", f"--reuid={uid}", f"--regid={uid}",
            "--clear-groups", "--inh-caps=-all", *cmd]


@pytest.fixture(scope="module", params=["invoker", "user"])
def attacked(request, tmp_path_factory):
    need_bwrap()
    if request.param == "user":
        if not AS_ROOT:
            pytest.skip("the tests run as a normal user already: the first run was it")
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv (util-linux) is needed to run the grader as a user")
    # a folder of its own under /tmp (pytest's is root's, mode 0700, for the user run)
    tmp = Path(tempfile.mkdtemp(prefix=f"attacks-{request.param}-"))
    tmp.chmod(0o755)
    as_user = USER_UID if request.param == "user" else None
    try:
        outcome = _run_batch(tmp, as_user=as_user)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    outcome["as_root"] = AS_ROOT and as_user is None
    return outcome


def _rows(outcome: dict, student: str) -> dict[str, dict]:
    return outcome["table"][student]


def test_the_honest_notebook_beside_the_attacks_keeps_full_marks(attacked):
    rows = _rows(attacked, "honest")
    assert all(r["status"] == "graded" and r["points"] == r["max_points"]
               for r in rows.values()), rows


def test_no_kernel_can_write_a_kernel_setting(attacked):
    row = _rows(attacked, "core")["auc-negated-scores"]
    assert _measure(row) == 0, row
    assert Path("/proc/sys/kernel/core_pattern").read_text() == attacked["core_before"]


def test_a_fork_bomb_is_capped_at_the_process_limit(attacked):
    row = _rows(attacked, "forks")["auc-negated-scores"]
    children = _measure(row)
    assert children is not None and 0 < children < MAX_PROCS, row
    assert not attacked["leftover"], [p.pid for p in attacked["leftover"]]


def test_writing_two_gigabytes_stops_at_the_scratch_size(attacked):
    row = _rows(attacked, "disk")["auc-negated-scores"]
    written = _measure(row)
    assert written is not None
    assert written <= 2 * (_sandbox.SCRATCH_MB + _sandbox.TMP_MB), row
    assert not [p for p in Path("/tmp").glob(f"fill-{os.getpid()}")]


def test_children_holding_more_than_the_limit_together_are_stopped(attacked):
    rows = _rows(attacked, "memory")
    assert {r["status"] for r in rows.values()} == {"memory"}, rows
    assert "together held more than" in rows["auc-pairs-table1"]["feedback"]


def test_nothing_of_the_repository_key_secret_or_folders_is_readable(attacked):
    row = _rows(attacked, "secrets")["auc-negated-scores"]
    assert _measure(row) == 0, row
    assert "a class secret" not in attacked["stdout"]


def test_an_expression_built_to_stall_the_grader_is_refused_in_seconds(attacked):
    rows = _rows(attacked, "bomb")
    bomb = rows["auc-pairs-table1"]
    assert bomb["status"] == "invalid_answer" and float(bomb["points"]) == 0, bomb
    assert all(r["status"] == "graded" for k, r in rows.items() if k != "auc-pairs-table1")


def test_the_notebook_time_limit_keeps_the_answers_already_given(attacked):
    rows = list(_rows(attacked, "sleepy").values())
    assert rows[0]["status"] == "graded" and rows[0]["points"] == rows[0]["max_points"]
    assert rows[-1]["status"] == "timeout", rows[-1]
    assert "limit was reached before cell" in rows[-1]["feedback"]


def test_another_chapters_stored_notebook_is_not_graded(attacked):
    if "mallory" not in attacked["table"]:
        pytest.skip("no stored chapter 13")
    rows = _rows(attacked, "mallory")
    assert {r["status"] for r in rows.values()} == {"wrong_chapter"}
    assert sum(float(r["points"]) for r in rows.values()) == 0
    assert "assignment: chapter 3 (given by --chapter)" in attacked["stdout"]


def test_the_batch_leaves_nothing_on_the_host(attacked):
    assert not attacked["leftover"]
    new = set(os.listdir("/tmp")) - attacked["tmp_before"]
    assert not [n for n in new if n.startswith("fill-")], new


def test_a_repository_inside_a_bound_folder_is_hidden(tmp_path):
    """A clone under /usr/local/src (or inside the venv): masked, and checked from inside."""
    need_bwrap()
    candidates = [Path("/usr/local/src"), Path(sys.prefix)]
    base = next((c for c in candidates if c.is_dir() and os.access(c, os.W_OK)), None)
    if base is None:
        pytest.skip("no bound folder is writable here to plant a repository in")
    repo = base / f"course-lib-test-{os.getpid()}"
    try:
        (repo / "key" / "course_key").mkdir(parents=True)
        (repo / "key" / "course_key" / "__init__.py").write_text("ANSWER = 19/24\n")
        (repo / "class.secret").write_text("s3cret-value\n")
        (repo / ".venv").mkdir()
        root = tmp_path / "batch"
        root.mkdir()
        root.chmod(0o755)
        lib, data = root / "lib", None
        lib.mkdir()
        lib.chmod(0o755)
        open_box = _sandbox.NotebookSandbox("bwrap", root, lib, data, protect=())
        assert open_box.readable([repo]) == [str(repo)]  # the probe sees a bare clone
        open_box.cleanup()
        box = _sandbox.NotebookSandbox("bwrap", root, lib, data,
                                       protect=_sandbox.protected_paths([repo]))
        assert box.readable() == []
        box.cleanup()
    finally:
        shutil.rmtree(repo, ignore_errors=True)
