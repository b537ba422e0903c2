# The README's commands. Everything is installed into .venv from the pinned
# requirements.txt, so a machine with Python 3.11, make and git is enough.
#
#   make book               install, build the HTML book (warnings are errors), print its path
#   make test               install, lint (ruff) and type-check (mypy), run every test:
#                           library, facts, notebooks (nbval), book, browser, SQL on
#                           DuckDB and on Spark (pyspark installed, needs Java); one
#                           pytest worker per core and one more (at most 4)
#   make check              ruff and mypy only (the fast inner loop is
#                           .venv/bin/python -m pytest tests course_lib -m "not slow")
#   make test-warehouse     only the SQL tests on Apache Spark (for the warehouse chapter's authors)
#   make notebooks          re-execute every chapter in place (for authors)
#   make lab                JupyterLab on lab copies of the chapters (for instructors);
#                           PORT=8888 IP=127.0.0.1 BROWSER=no|yes (default: yes only with a display)
#                           LAB_DIR=_build/lab LAB_ARGS='more jupyter lab options'
#   make book-student       the HTML book without the worked solutions (student edition),
#                           _build/student-book/_build/html/
#   make pdf                the whole book as one PDF handout, without the worked solutions,
#                           _build/pdf/book.pdf (offline, Chromium)
#   make pdf-solutions      the same PDF with every worked solution: the answer key,
#                           _build/pdf/book-solutions.pdf
#   make student-notebooks  student copies of the chapters (no outputs, no solutions, the text
#                           as the book prints it), in _build/student/;
#                           STUDENTS=roster.csv SECRET=class.secret: one folder per student, own variants
#                           FEEDBACK=full|verdict|none: hints, right/wrong only, or nothing (exams)
#   make test-other-cpu     re-run the notebook comparison as another processor would (CI)

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
WAREHOUSE_STAMP := $(VENV)/.warehouse-installed
TEST_STAMP := $(VENV)/.test-installed
BOOK_FLAGS := -W -n --keep-going
NOTEBOOKS  := $(sort $(wildcard notebooks/*.ipynb))
BOOK_NOTEBOOKS := $(sort $(wildcard book/*.ipynb))

.PHONY: install book book-student check test test-other-cpu test-warehouse notebooks lab lab-copies pdf pdf-solutions singlehtml student-notebooks clean

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml key/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e . -e ./key
	touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . --builder html $(BOOK_FLAGS)
	@echo
	@echo "The book: $(CURDIR)/_build/html/index.html"

# The student edition: _config.yml with sphinx-exercise's hide_solutions set (written by
# book/_ext/editions.py, which also makes the switch work for the book's gated solutions).
STUDENT_BOOK := _build/student-book

book-student: $(STAMP)
	$(BIN)/python book/_ext/editions.py student-config $(STUDENT_BOOK)/_config.yml
	$(BIN)/jupyter-book build . --builder html --config $(STUDENT_BOOK)/_config.yml \
	  --path-output $(STUDENT_BOOK) $(BOOK_FLAGS)
	@echo
	@echo "The student edition (no worked solutions): $(CURDIR)/$(STUDENT_BOOK)/_build/html/index.html"

check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# pyspark (about 490 MB) for the Spark tests only: `make test` installs it, `make book`
# does not. Without a Java runtime the Spark tests are skipped, saying why (in CI they fail).
$(WAREHOUSE_STAMP): $(STAMP) requirements-warehouse.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-warehouse.txt
	touch $(WAREHOUSE_STAMP)

# statsmodels and its dependencies for the tests only (requirements-test.txt): the
# oracle of the calibration slope; `make book` does not install them.
$(TEST_STAMP): $(STAMP) requirements-test.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	touch $(TEST_STAMP)

test-warehouse: $(WAREHOUSE_STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider tests/test_sql.py -m spark

# pytest-xdist, one worker per core and one more (at most 4: each worker may run a
# kernel, a browser or Spark, and memory runs out before cores do): the tests often wait
# for a kernel, a browser or a grader's time limit, and the extra worker fills those
# waits (whole runs on 2 cores: the cores busy 93.6 % of the time with 2 workers, 98.5 %
# with 3); --dist loadfile keeps the tests of a file in one worker, so the cells of a
# notebook run in order in one kernel.
# tests/conftest.py adapts it (pytest_xdist_make_scheduler): every Spark test in one
# worker (one Spark session), the book's tests and the PDF's in one (one book build,
# tests/book_build.py), the two sandbox-attack batches in two, the longest units first.
CORES := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
PARALLEL := -n $(shell echo $$(( $(CORES) + 1 < 4 ? $(CORES) + 1 : 4 ))) --dist loadfile

# make check's two steps, mypy beside the tests: it type-checks on one core for about 20 s
# on a fresh clone while pytest's workers start; either failing fails make test (its
# output is printed after the tests').
test: $(STAMP) $(WAREHOUSE_STAMP) $(TEST_STAMP)
	$(BIN)/ruff check .
	@log=$$(mktemp); $(BIN)/mypy > "$$log" 2>&1 & mypy=$$!; \
	$(BIN)/python -m pytest $(PARALLEL) tests course_lib key $(NOTEBOOKS) $(BOOK_NOTEBOOKS) \
	  --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --durations=20; tests=$$?; \
	wait $$mypy; types=$$?; echo "$(BIN)/mypy"; cat "$$log"; rm -f "$$log"; \
	exit $$(( tests || types ))

# The stored outputs must not depend on the processor that produced them. This re-runs the
# notebook comparison with other code paths for the same arithmetic: OpenBLAS's kernels for
# an old core (Prescott: SSE3, no AVX) and numpy's SIMD loops without the AVX2/FMA3 group.
# On x86-64 this changes np.dot, np.linalg.norm, matrix products and numpy's vectorized
# transcendental functions in their last bits, so a stored float with all 17 digits fails
# here (it did for 18 cells before the chapters rounded what they glue).
OTHER_CPU := OPENBLAS_CORETYPE=Prescott NPY_DISABLE_CPU_FEATURES=X86_V3

# Chapter 14's Spark with tests/conftest.py's flags (first compiler tier, serial
# collector, no adaptive re-planning: less CPU for short Spark runs); this run reads no
# conftest.
test-other-cpu: export PYSPARK_SUBMIT_ARGS ?= --driver-java-options "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" --conf spark.sql.adaptive.enabled=false pyspark-shell
test-other-cpu: $(STAMP)
	$(OTHER_CPU) $(BIN)/python -m pytest $(PARALLEL) -p no:cacheprovider $(NOTEBOOKS) $(BOOK_NOTEBOOKS) \
	  --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

notebooks: $(STAMP)
	@for nb in $(NOTEBOOKS) $(BOOK_NOTEBOOKS); do \
	  echo "executing $$nb"; \
	  (cd "$$(dirname $$nb)" && $(CURDIR)/$(BIN)/jupyter execute --inplace "$$(basename $$nb)") || exit 1; \
	done

# JupyterLab shows generated copies in _build/lab/ (book/_ext/labcopy.py): the notebooks'
# glue and cite roles become the stored numbers and author-year text, so the class sees
# what the book prints. A copy is rewritten only when its chapter is newer, so edits made
# in class survive a restart until the chapter itself changes.
PORT    ?= 8888
IP      ?= 127.0.0.1
LAB_DIR ?= _build/lab
LAB_COPIES := $(addprefix $(LAB_DIR)/,$(NOTEBOOKS) $(BOOK_NOTEBOOKS))
# Open a browser only on a machine with a display, unless BROWSER=yes|no says otherwise.
LAB_OPEN := $(if $(filter no,$(BROWSER)),no,$(if $(BROWSER),yes,$(if $(DISPLAY)$(WAYLAND_DISPLAY),yes,no)))
# Jupyter refuses to start as root without --allow-root (containers, classroom servers run
# as root); pass it only then, so an ordinary user keeps Jupyter's own safety check.
LAB_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

LAB_TOOLS := book/references.bib book/_ext/labcopy.py $(STAMP)

# The copies are trusted: Lab runs the scripts of their stored outputs, so the threshold
# explorers (book/explorer.ipynb and the chapters) work as soon as a notebook is opened,
# not only after it is run. The signatures and their key live with the copies, in
# $(LAB_DIR)/.jupyter (hidden from Lab's file browser), not in the user's Jupyter data.
LAB_TRUST  = $(LAB_DIR)/.jupyter/nbsignatures.db
LAB_NOTARY = --NotebookNotary.db_file=$(LAB_TRUST) \
  --NotebookNotary.secret_file=$(LAB_DIR)/.jupyter/notebook_secret

# One run for every stale copy (all of them when the tool or the bibliography changed, a
# copy is missing or the signatures are), each copy signed as it is written.
LAB_STALE = $(if $(filter $(LAB_TOOLS) $(LAB_TRUST),$?)$(filter-out $(wildcard $(LAB_COPIES)),$(LAB_COPIES)),$(NOTEBOOKS) $(BOOK_NOTEBOOKS),$(filter %.ipynb,$?))
$(LAB_DIR)/.copies: $(NOTEBOOKS) $(BOOK_NOTEBOOKS) $(LAB_TOOLS) $(LAB_TRUST)
	$(BIN)/python book/_ext/labcopy.py $(LAB_DIR) $(LAB_STALE)
	$(BIN)/jupyter trust --log-level=WARN $(LAB_NOTARY) $(addprefix $(LAB_DIR)/,$(LAB_STALE))
	touch $@

# jupyter trust creates the signature database; a missing one re-signs every copy.
$(LAB_TRUST):
	mkdir -p $(dir $@)

lab-copies: $(LAB_DIR)/.copies

# No news feed or update check: a classroom server may be offline. The server's options
# stop the fetching; the question "Would you like to get notified about official Jupyter
# news?" is asked by Lab in the browser while its setting fetchNews is "none", so the
# default of that setting becomes "false" (book/_ext/lab_config/labconfig/
# default_setting_overrides.json, found through JUPYTER_CONFIG_PATH; a user's own
# choice in Lab's settings still wins).
LAB_CONFIG := $(CURDIR)/book/_ext/lab_config
lab: lab-copies
	env $(if $(filter yes no,$(BROWSER)),-u BROWSER) \
	  JUPYTER_CONFIG_PATH=$(LAB_CONFIG)$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH)) \
	  $(BIN)/jupyter lab \
	  --notebook-dir=$(LAB_DIR) --ServerApp.ip=$(IP) --ServerApp.port=$(PORT) \
	  --ServerApp.port_retries=0 $(if $(filter no,$(LAB_OPEN)),--no-browser) $(LAB_ROOT) \
	  --LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
	  $(LAB_NOTARY) $(LAB_ARGS)

# The whole book as one PDF, offline: Sphinx's singlehtml page printed by Debian's Chromium
# after MathJax has typeset it (book/_ext/print_pdf.py; needs `apt-get install chromium`).
# Both PDFs print the same page, for paper (no toggles, the explorers at their start):
# the handout leaves the worked solutions out, the answer key prints them open.
singlehtml: $(STAMP)
	$(BIN)/jupyter-book build . --builder singlehtml $(BOOK_FLAGS)

pdf: singlehtml
	$(BIN)/python book/_ext/print_pdf.py _build/singlehtml/index.html _build/pdf/book.pdf

pdf-solutions: singlehtml
	$(BIN)/python book/_ext/print_pdf.py --solutions _build/singlehtml/index.html \
	  _build/pdf/book-solutions.pdf

# STUDENTS=roster.csv (a column 'student'): one folder per student, each with its own
# variants drawn from the class secret in SECRET (default class.secret, created if missing).
# FEEDBACK=full|verdict|none: what `check` says in the copies: hints (practice, the
# default), right or not right only (graded homework), "answer recorded" only (exams).
SECRET ?= class.secret
FEEDBACK ?= full
student-notebooks: $(STAMP)
	$(BIN)/python -m course_lib.exercises.student --out-dir _build/student \
	  --feedback $(FEEDBACK) $(if $(STUDENTS),--roster $(STUDENTS) --secret-file $(SECRET)) $(NOTEBOOKS)
	@echo "Student copies (no outputs, solutions replaced by stubs): $(CURDIR)/_build/student"


clean:
	rm -rf _build .pytest_cache .hypothesis
