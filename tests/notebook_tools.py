"""Notebooks in tests: glued values and printed outputs of stored notebooks, and runs of a
notebook in a kernel set up as another installation would be."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GLUE_MIME = "application/papermill.record/text/plain"


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def chapter(name: str) -> Path:
    """The stored notebook ``notebooks/<name>.ipynb``."""
    return ROOT / "notebooks" / f"{name}.ipynb"


def glued(path: Path) -> dict[str, str]:
    """The text/plain value of every ``glue`` call stored in a notebook.

    Strings come back with their quotes (``"'19/24'"``), numbers as printed (``"0.25"``).
    """
    values = {}
    for cell in load(path)["cells"]:
        for out in cell.get("outputs", []):
            key = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if key is not None:
                values[key] = out["data"][GLUE_MIME]
    return values


def cell_text(path: Path) -> str:
    """All stored stream and text/plain outputs of a notebook, joined."""
    parts = []
    for cell in load(path)["cells"]:
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def stored(value):
    """``value`` as a chapter stores it: floats rounded like every glued value.

    The chapters glue through :func:`course_lib.notebook.glue`, which keeps
    :data:`course_lib.notebook.SIGNIFICANT_DIGITS` significant digits; a fact test compares
    the stored value with the exact one rounded the same way, so a change in any kept digit
    fails.
    """
    from course_lib.notebook import round_significant

    return round_significant(value)


#: Put at the top of a kernel's boot script: the named top-level packages cannot be
#: imported, as if they were not installed (``NOT_INSTALLED`` is defined by the script).
NOT_INSTALLED_FINDER = '''
import sys


class NotInstalled:
    """Importing these packages fails as an absent package does."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] in NOT_INSTALLED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled)
for _name in [m for m in sys.modules if m.split(".")[0] in NOT_INSTALLED]:
    del sys.modules[_name]
'''


def execute(nb, folder: Path, boot: Path, *, timeout: float,
            allow_errors: bool = False) -> None:
    """Run every cell of ``nb`` (in place) in a kernel started as ``python boot -f
    CONNECTION_FILE``, with ``folder`` as its working directory; raises on a cell's error
    unless ``allow_errors``."""
    import sys

    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    spec = KernelSpec(argv=[sys.executable, str(boot), "-f", "{connection_file}"],
                      display_name="test kernel", language="python", metadata={})

    class Specs(KernelSpecManager):
        def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
            return spec

    km = KernelManager(kernel_name="test-kernel", kernel_spec_manager=Specs())
    NotebookClient(nb, km=km, timeout=timeout, allow_errors=allow_errors,
                   resources={"metadata": {"path": str(folder)}}).execute()


def errors(nb) -> list[tuple[str, str]]:
    """(name, value) of every error output of a run notebook."""
    return [(o["ename"], o["evalue"]) for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if o.get("output_type") == "error"]


def printed(nb) -> str:
    """Every stream output of a run notebook, joined."""
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.get("outputs", []) if o.get("output_type") == "stream")


def build_page(tmp_path: Path, cells: list[tuple[str, str]], extensions: list[str],
               *, hide_solutions: bool = False) -> str:
    """The HTML of a one-page Sphinx book (myst-nb, not executed) made of ``cells``
    ((kind, text) pairs), with the book's extensions ``extensions`` (from book/_ext);
    a warning is an error, as in the book's build."""
    import nbformat
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    src = tmp_path / "src"
    src.mkdir()
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell(text) if kind == "markdown"
               else nbformat.v4.new_code_cell(text) for kind, text in cells],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}})
    nbformat.write(nb, src / "index.ipynb")
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        f"extensions = {['myst_nb', 'sphinx_exercise', *extensions]!r}\n"
        "nb_execution_mode = 'off'\n"
        f"hide_solutions = {hide_solutions}\n", encoding="utf-8")
    out = tmp_path / "html"
    with docutils_namespace():  # each build registers its nodes afresh
        app = Sphinx(str(src), str(src), str(out), str(tmp_path / "doctrees"), "html",
                     status=None, warning=None, freshenv=True, warningiserror=True)
        app.build()
    return (out / "index.html").read_text(encoding="utf-8")
