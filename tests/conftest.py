"""Shared pytest configuration: hypothesis profiles and common fixtures."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# Deterministic, deadline-free property tests: the machines are noisy and CI must be
# reproducible. HYPOTHESIS_PROFILE=thorough runs ten times more examples.
settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Spark's Java runtime, wherever the tests start one (the session below, chapter 14 under
# nbval: its kernel inherits the variable): the first compiler tier only and the serial
# garbage collector. The tests run many small jobs once each, for which the optimizing
# compiler's work (on its own threads) never pays back: the Spark tests took about a
# third less CPU (148 -> 101 s, issue 29), with the same results. Adaptive query
# execution is off: it re-plans every query after each stage, for tables of a few
# hundred rows, where it changes no result (test_sql's Spark tests: 100 -> 80 CPU-s).
# The Makefile sets the same for make test-other-cpu, which reads no conftest; a
# variable set by the user wins.
SPARK_SUBMIT_ARGS = ('--driver-java-options "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" '
                     "--conf spark.sql.adaptive.enabled=false pyspark-shell")
os.environ.setdefault("PYSPARK_SUBMIT_ARGS", SPARK_SUBMIT_ARGS)

# One BLAS thread in each test process (numpy's OpenBLAS and scipy's, loaded here), not in
# the kernels, graders or builds they start: the pytest-xdist workers already use every
# core, and OpenBLAS's second thread, woken for tiny vectors (scipy's L-BFGS-B in
# test_calibration's Platt tests), spins beside them: those two tests took 17.3 CPU-s
# with two threads, 8.6 with one (issue 29).
import scipy.linalg  # noqa: E402, F401  (scipy's OpenBLAS, for threadpool_limits)
from threadpoolctl import threadpool_limits  # noqa: E402

threadpool_limits(limits=1, user_api="blas")


@pytest.fixture
def table1():
    """The running example of the book ("Table 1" of source D): ids 1..7."""
    scores = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    labels = np.array([0, 0, 0, 1, 1, 1, 0])
    return labels, scores


# --------------------------------------------------------------- one Chromium a module

#: Chromium for the browser tests: headless, no network but this machine's own servers.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost"]


@pytest.fixture(scope="module")
def module_chromium():
    """One Chromium for the browser tests of a module (Playwright's driver and a browser
    cost about 2.5 CPU-s to start; tests/test_book.py started six, test_interactive.py two). Skipped without
    Chromium, failed in CI (.ci/run installs it). Playwright's event loop runs while it
    is open: a module that uses it must not call ``asyncio.run`` in between."""
    import shutil

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but Chromium is not installed (.ci/run installs it)")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def chromium(module_chromium):
    """The module's Chromium for one test; every page and context the test opened is
    closed after it, so the next test starts with none (no page left running scripts)."""
    yield module_chromium
    for context in list(module_chromium.contexts):
        context.close()


# ------------------------------------------------------------------- the Spark session


@pytest.fixture(scope="session")
def spark_session(tmp_path_factory):
    """One local[2] Spark session (one Java process) for every Spark test of the run:
    the tests that use it are one pytest-xdist group, run by one worker (see
    ``pytest_collection_modifyitems``). Skipped without Java or pyspark, except in CI,
    where the Spark tests must run. A module sets what it needs of the session's SQL
    settings (``spark.sql.shuffle.partitions``) and its temporary views."""
    import shutil
    import warnings

    reason = None
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        reason = "Spark needs a Java runtime (install openjdk-17-jre-headless)"
    else:
        try:
            import pyspark  # noqa: F401
        except ImportError:
            reason = "pyspark is not installed (pip install -r requirements-warehouse.txt)"
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the Spark tests: {reason}")
        pytest.skip(reason)
    from course_lib.sql import SparkRunner

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # its catalog's folder (made when a test lists the session's tables) in the
        # run's temporary folder, not ./spark-warehouse in the clone
        warehouse = tmp_path_factory.mktemp("spark-warehouse")
        run = SparkRunner.start("local[2]", quiet=True,
                                config={"spark.sql.warehouse.dir": str(warehouse)})
    yield run.session
    run.stop()


# ------------------------------------------------ how pytest-xdist shares out the tests
#
# `make test` runs `pytest -n N --dist loadfile` (N: cores + 1): a work unit is a file (the cells of a
# notebook run in order in one kernel, a module's fixtures are made once). The scheduler
# below (pytest_xdist_make_scheduler) keeps that, with three exceptions, and hands out the
# longest units first, so that no worker is left alone at the end with a long one:
#
# * "spark": the Spark tests of tests/test_sql.py and tests/test_report_engines.py (those
#   with "spark" in their name; each uses conftest's spark_session), so one worker
#   starts Java once for all of them;
# * "book": tests/test_book.py and tests/test_pdf.py, the tests of the built book
#   (tests/book_build.py): the worker that builds the HTML book builds the single page for
#   the PDF from the same Sphinx environment, and no other worker waits for it;
# * the two batches of tests/test_sandbox_attacks.py (as the invoking user, as an
#   unprivileged one) are independent units, so two workers can run them at once.
#
# The scheduler sees test ids only (pytest-xdist's own groups, --dist loadgroup, rename
# the ids, which pytest 9 no longer lets it do), hence rules on the ids. A Spark test
# named without "spark" still passes, in the unit of its file, with a session of its own.

BOOK_FILES = ("tests/test_book.py", "tests/test_pdf.py")
SPARK_FILES = ("tests/test_sql.py", "tests/test_report_engines.py", "tests/test_report_guards.py")
ATTACKS_FILE = "tests/test_sandbox_attacks.py"

#: Rough seconds of a unit with two workers on two busy cores (issue 29), for the order
#: only: the units named here go first, the longest first; the others follow in
#: pytest-xdist's order for --dist loadfile (most tests first).
LONGEST = {
    "book": 900,
    "spark": 400,
    "tests/test_student_install.py": 400,
    "tests/test_grade.py": 250,
    "tests/test_sandbox_attacks.py[user]": 200,
    "tests/test_calibration.py": 160,
    "tests/test_confusion.py": 160,
    "tests/test_sandbox_attacks.py[invoker]": 150,
    "tests/test_grade_copies.py": 130,
    "tests/test_assessment.py": 120,
    "notebooks/14_warehouse.ipynb": 120,
    "tests/test_lab.py": 100,
}


def work_unit(nodeid: str) -> str:
    """The unit of work of a test id: its file, or one of the groups above."""
    path, _, name = nodeid.partition("::")
    if path in BOOK_FILES:
        return "book"
    if path in SPARK_FILES and "spark" in name.lower():
        return "spark"
    if path == ATTACKS_FILE and name.endswith("]"):
        return f"{path}[{name[name.rindex('[') + 1:-1]}]"
    return path


def pytest_configure(config):
    """nbval's kernels in the lab environment (tests/lab_environment.py): registered as a
    plugin, not written here, because a conftest's hooks see only the items of its own
    folder and the chapters are in notebooks/ and book/."""
    import lab_environment

    if not config.pluginmanager.is_registered(lab_environment):
        config.pluginmanager.register(lab_environment, "lab_environment")


def pytest_collection_modifyitems(config, items):
    """A test that uses the Spark session is a ``spark`` test (``make test`` runs them;
    ``make test-warehouse`` runs only them)."""
    for item in items:
        if "spark_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.spark)


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile with the units of ``work_unit``, the longest first."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Units(LoadFileScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:  # the first assignment: the queue is complete
                queue = sorted(self.workqueue.items(),
                               key=lambda unit: (-LONGEST.get(unit[0], 0), -len(unit[1])))
                self.workqueue.clear()
                self.workqueue.update(queue)
                self.ordered = True
            super()._assign_work_unit(node)

    return Units(config, log)
