"""course_lib.sql as a package: the names of the old module sql.py, every one still there.

The module ``course_lib/sql.py`` became the package ``course_lib/sql/`` (generation,
runners, conversion of fetched rows, the ``sql_*`` functions). The lists below were read
from the old module before the split (``dir()`` and ``__all__``); the package must
answer to every name of them with the object ``course_lib`` exports, and every
``sql_*`` function must keep a numpydoc Parameters section describing all its
parameters.
"""

from __future__ import annotations

import inspect
import re
import types

import pytest

import course_lib
import course_lib.sql as sql
from course_lib.sql import compute

# course_lib.sql.__all__ before the split, in its order.
OLD_ALL = [
    "Dialect", "DUCKDB", "SPARK", "Relation", "SqlChecks", "SqlKs", "SqlEvaluation",
    "DuckDBRunner", "SparkRunner", "relation", "checks_sql", "score_groups_sql",
    "score_counts_sql", "cumulative_counts_sql", "roc_points_sql", "auc_sql", "ks_sql",
    "gain_curve_sql", "gains_table_sql", "binned_auc_sql", "sql_checks", "sql_roc_curve",
    "sql_roc_auc", "sql_gini", "sql_ks", "sql_gain_curve", "sql_lift_curve",
    "sql_gains_table", "sql_binned_auc", "sql_evaluation",
]  # fmt: skip

# The public names of dir(course_lib.sql) before the split (modules left out).
OLD_DIR = [
    "Any", "BUCKETS", "DUCKDB", "Decimal", "Dialect", "DuckDBRunner", "Fraction",
    "GAINS_TABLE_COLUMNS", "GainCurve", "LiftCurve", "NamedTuple", "Relation", "RocCurve",
    "SPARK", "SparkRunner", "SqlChecks", "SqlEvaluation", "SqlKs", "annotations", "auc_sql",
    "binned_auc_sql", "binned_pr_points_sql", "checks_sql", "cumulative_counts_sql",
    "gain_curve_sql", "gains_table_sql", "ks_sql", "need_classes", "relation",
    "roc_points_sql", "score_counts_sql", "score_groups_sql", "sql_binned_auc",
    "sql_binned_pr_auc", "sql_checks", "sql_evaluation", "sql_gain_curve", "sql_gains_table",
    "sql_gini", "sql_ks", "sql_lift_curve", "sql_roc_auc", "sql_roc_curve",
]  # fmt: skip

# Of OLD_DIR, what the old module only imported for its own use (other modules' names,
# typing, the __future__ flag): not its API, and not carried into the package.
OLD_IMPORTS = {
    "Any", "Decimal", "Fraction", "GAINS_TABLE_COLUMNS", "GainCurve", "LiftCurve",
    "NamedTuple", "RocCurve", "need_classes",
}  # fmt: skip

# The two names course_lib exported from sql.py without their being in its __all__.
ADDED_TO_ALL = {"binned_pr_points_sql", "sql_binned_pr_auc"}

SQL_FUNCTIONS = sorted(n for n in OLD_DIR if n.startswith("sql_"))


def _public(module: types.ModuleType) -> set[str]:
    return {
        n for n in dir(module)
        if not n.startswith("_") and not isinstance(getattr(module, n), types.ModuleType)
    }


def test_all_is_the_old_list_and_the_two_names_it_missed():
    assert len(sql.__all__) == len(set(sql.__all__))
    assert set(sql.__all__) == set(OLD_ALL) | ADDED_TO_ALL
    for name in ADDED_TO_ALL:
        assert getattr(course_lib, name) is getattr(sql, name)


def test_dir_keeps_every_old_name_and_adds_none():
    assert _public(sql) == set(OLD_DIR) - OLD_IMPORTS
    assert sql.BUCKETS == 1024


@pytest.mark.parametrize("name", sorted(set(OLD_DIR) - OLD_IMPORTS - {"annotations", "BUCKETS"}))
def test_each_old_name_is_the_object_course_lib_exports(name):
    assert getattr(sql, name) is getattr(course_lib, name)


def test_one_job_per_module():
    """Generation never runs SQL, the runners and the conversion never write it."""
    from course_lib.sql import convert, generate, runners

    assert set(generate.__all__) >= {"relation", "Dialect", "Relation"}
    assert all(n.endswith("_sql") for n in set(generate.__all__) - {
        "relation", "Dialect", "Relation", "DUCKDB", "SPARK"})
    assert set(runners.__all__) == {"DuckDBRunner", "SparkRunner"}
    assert set(convert.__all__) == {"SqlChecks", "SqlKs", "SqlEvaluation"}
    assert set(compute.__all__) == set(SQL_FUNCTIONS)
    for module in (generate, convert):
        source = inspect.getsource(module)
        for engine_call in ("import duckdb", "import pyspark", ".fetch(", ".execute(", ".sql("):
            assert engine_call not in source, (module.__name__, engine_call)


# ------------------------------------------------------------------ Parameters sections

_ENTRY = re.compile(r"^(\w+(?:, \w+)*) : \S", re.MULTILINE)


def parameters_section(doc: str) -> str:
    """The body of the numpydoc Parameters section of a docstring, dedented."""
    doc = inspect.cleandoc(doc)
    match = re.search(r"^Parameters\n-{10}\n(.*?)(?:\n\n|\Z)", doc, re.MULTILINE | re.DOTALL)
    assert match, "no Parameters section"
    return match.group(1)


@pytest.mark.parametrize("name", SQL_FUNCTIONS)
def test_every_sql_function_documents_each_parameter_in_order(name):
    function = getattr(sql, name)
    body = parameters_section(function.__doc__)
    assert "{shared}" not in function.__doc__
    documented = [p for names in _ENTRY.findall(body) for p in names.split(", ")]
    assert documented == list(inspect.signature(function).parameters)
    for line in body.splitlines():  # an entry line, then its indented description
        assert _ENTRY.match(line) or line.startswith("    "), line
    assert not re.search(r"^\w.* :.*\n(?!    )", body + "\n", re.MULTILINE), body


def test_the_shared_entries_are_those_of_the_source():
    doc = sql.sql_binned_auc.__doc__
    assert "Return the trapezoid area as a :class:`fractions.Fraction` (needs no weights)." in doc
    assert "(needs no weights or\n        integer weights)" not in doc  # its own exact, not the shared one
    assert "ranked exactly (BIGINT ``2**62 + k`` included)." in sql.sql_gains_table.__doc__


def test_a_parameter_without_a_description_is_refused_at_import():
    def sql_new(run, source, *, label, score, colour):
        """New.

        Parameters
        ----------
        {shared}
        """

    with pytest.raises(ValueError, match=r"no description of the parameters \['colour'\]"):
        compute._parameters(sql_new)

    def sql_no_marker(run):
        """No marker."""

    with pytest.raises(ValueError, match="one line"):
        compute._parameters(sql_no_marker)
