# The README's commands. Everything is installed into .venv from the pinned
# requirements.txt, so a machine with Python 3.11, make and git is enough.
#
#   make book               install, build the HTML book (warnings are errors), print its path
#   make test               install (and pyspark), run every test: library, facts, notebooks (nbval),
#                           book, browser, SQL on DuckDB and Spark
#   make notebooks          re-execute every chapter in place (for authors)
#   make lab                start JupyterLab on notebooks/ (for instructors)
#   make student-notebooks  copies of the chapters without outputs, in _build/student/

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
WAREHOUSE_STAMP := $(VENV)/.warehouse-installed
BOOK_FLAGS := -W -n --keep-going
NOTEBOOKS  := $(sort $(wildcard notebooks/*.ipynb))
BOOK_NOTEBOOKS := $(sort $(wildcard book/*.ipynb))

.PHONY: install book test notebooks lab student-notebooks clean

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

# pyspark (about 490 MB) only for the tests: `make book` does not install it
$(WAREHOUSE_STAMP): $(STAMP) requirements-warehouse.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-warehouse.txt
	touch $(WAREHOUSE_STAMP)

test: $(STAMP) $(WAREHOUSE_STAMP)
	$(BIN)/python -m pytest tests course_lib $(NOTEBOOKS) $(BOOK_NOTEBOOKS) \
	  --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

notebooks: $(STAMP)
	@for nb in $(NOTEBOOKS) $(BOOK_NOTEBOOKS); do \
	  echo "executing $$nb"; \
	  (cd "$$(dirname $$nb)" && $(CURDIR)/$(BIN)/jupyter execute --inplace "$$(basename $$nb)") || exit 1; \
	done

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks

student-notebooks: $(STAMP)
	mkdir -p _build/student
	$(BIN)/jupyter nbconvert --to notebook --ClearOutputPreprocessor.enabled=True \
	  --output-dir _build/student $(NOTEBOOKS)
	@echo "Notebooks without outputs: $(CURDIR)/_build/student"


clean:
	rm -rf _build .pytest_cache .hypothesis
