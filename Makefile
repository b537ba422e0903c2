# The README's commands. Everything is installed into .venv from the pinned
# requirements.txt, so a machine with Python 3.11, make and git is enough.
#
#   make book               install, build the HTML book (warnings are errors), print its path
#   make test               install, run every test: library, facts, notebooks (nbval), book, browser
#   make notebooks          re-execute every chapter in place (for authors)
#   make lab                start JupyterLab on notebooks/ (for instructors)
#   make student-notebooks  student copies of the chapters (no outputs, no solutions), in _build/student/
#   make test-other-cpu     re-run the notebook comparison as another processor would (CI)

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
BOOK_FLAGS := -W -n --keep-going
NOTEBOOKS  := $(sort $(wildcard notebooks/*.ipynb))
BOOK_NOTEBOOKS := $(sort $(wildcard book/*.ipynb))

.PHONY: install book test test-other-cpu notebooks lab student-notebooks clean

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . --builder html $(BOOK_FLAGS)
	@echo
	@echo "The book: $(CURDIR)/_build/html/index.html"

test: $(STAMP)
	$(BIN)/python -m pytest tests course_lib $(NOTEBOOKS) $(BOOK_NOTEBOOKS) \
	  --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

# The stored outputs must not depend on the processor that produced them. This re-runs the
# notebook comparison with other code paths for the same arithmetic: OpenBLAS's kernels for
# an old core (Prescott: SSE3, no AVX) and numpy's SIMD loops without the AVX2/FMA3 group.
# On x86-64 this changes np.dot, np.linalg.norm, matrix products and numpy's vectorized
# transcendental functions in their last bits, so a stored float with all 17 digits fails
# here (it did for 18 cells before the chapters rounded what they glue).
OTHER_CPU := OPENBLAS_CORETYPE=Prescott NPY_DISABLE_CPU_FEATURES=X86_V3

test-other-cpu: $(STAMP)
	$(OTHER_CPU) $(BIN)/python -m pytest -p no:cacheprovider $(NOTEBOOKS) $(BOOK_NOTEBOOKS) \
	  --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

notebooks: $(STAMP)
	@for nb in $(NOTEBOOKS) $(BOOK_NOTEBOOKS); do \
	  echo "executing $$nb"; \
	  (cd "$$(dirname $$nb)" && $(CURDIR)/$(BIN)/jupyter execute --inplace "$$(basename $$nb)") || exit 1; \
	done

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks

student-notebooks: $(STAMP)
	$(BIN)/python -m course_lib.exercises.student --out-dir _build/student $(NOTEBOOKS)
	@echo "Student copies (no outputs, solutions replaced by stubs): $(CURDIR)/_build/student"


clean:
	rm -rf _build .pytest_cache .hypothesis
