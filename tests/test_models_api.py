"""ScoreModel split into parts: the public API of the one class it was, unchanged.

``ScoreModel`` was one class in ``course_lib/models.py``; it is now composed of parts
(``course_lib/models/``: core, rates, curves, areas, optima, numeric). The table below
was read from the class before the split: every public method with its signature and
every public attribute. The class must still have exactly these, and the module the
same public names.
"""

from __future__ import annotations

import inspect

import sympy

import course_lib
import course_lib.models as models
from course_lib.models import LINEAR_DENSITIES, ScoreModel

# dir(ScoreModel) before the split: method -> str(inspect.signature), attribute -> repr.
OLD_API = {
    "accuracy": "(self, theta: 'Any' = theta, pi: 'Any' = pi) -> 'sympy.Expr'",
    "auc": "(self) -> 'sympy.Expr'",
    "auc_pr": "(self, pi: 'Any' = pi) -> 'sympy.Expr'",
    "auc_probability": "(self) -> 'sympy.Expr'",
    "best_accuracy": "(self, pi: 'Any' = 1/2) -> 'ModelOptimum'",
    "binarized_auc": "(self, theta: 'Any' = theta) -> 'sympy.Expr'",
    "fpr": "(self, theta: 'Any' = theta) -> 'sympy.Expr'",
    "gain": "(self, pi: 'Any' = pi) -> 'ModelCurve'",
    "gain_area": "(self, pi: 'Any' = pi) -> 'sympy.Expr'",
    "gini": "(self, pi: 'Any' = pi) -> 'sympy.Expr'",
    "ks": "(self, pi: 'Any' = pi) -> 'ModelKS'",
    "ks_curve": "(self, pi: 'Any' = pi) -> 'ModelCurve'",
    "lift": "(self, pi: 'Any' = pi) -> 'ModelCurve'",
    "pi": "pi",
    "points": "(self, curve: 'ModelCurve', n: 'int' = 201) -> 'CurvePoints'",
    "positive_rate": "(self, theta: 'Any' = theta, pi: 'Any' = pi) -> 'sympy.Expr'",
    "pr": "(self, pi: 'Any' = pi) -> 'ModelCurve'",
    "precision": "(self, theta: 'Any' = theta, pi: 'Any' = pi) -> 'sympy.Expr'",
    "recall": "(self, theta: 'Any' = theta) -> 'sympy.Expr'",
    "roc": "(self) -> 'ModelCurve'",
    "sample": "(self, n: 'int', pi: 'float', *, seed: 'int | np.random.Generator | None' = None)"
    " -> 'tuple[np.ndarray, np.ndarray]'",
    "theta": "theta",
    "tpr": "(self, theta: 'Any' = theta) -> 'sympy.Expr'",
    "u": "u",
}
OLD_INSTANCE_ATTRIBUTES = ["p0", "p1", "support", "symbol"]
OLD_MODULE_ALL = ["THETA", "PI", "U", "ModelCurve", "CurvePoints", "ModelKS", "ModelOptimum",
                  "ScoreModel", "LINEAR_DENSITIES"]
OLD_INIT = ("(self, p0: 'Any', p1: 'Any', *, support: 'tuple[Any, Any]' = (0, 1), "
            "symbol: 'sympy.Symbol | None' = None) -> 'None'")


def public_api(cls: type) -> dict[str, str]:
    api = {}
    for name in dir(cls):
        if name.startswith("_"):
            continue
        attribute = inspect.getattr_static(cls, name)
        if callable(attribute) or isinstance(attribute, (staticmethod, classmethod, property)):
            api[name] = str(inspect.signature(getattr(cls, name)))
        else:
            api[name] = repr(attribute)
    return api


def test_the_public_methods_and_attributes_are_those_of_the_one_class():
    assert public_api(ScoreModel) == OLD_API
    assert str(inspect.signature(ScoreModel.__init__)) == OLD_INIT
    assert sorted(n for n in vars(LINEAR_DENSITIES) if not n.startswith("_")) == (
        OLD_INSTANCE_ATTRIBUTES)


def test_every_public_method_keeps_its_docstring():
    for name in OLD_API:
        attribute = getattr(ScoreModel, name)
        if callable(attribute):
            assert inspect.getdoc(attribute), name
    assert "Class-conditional score densities" in ScoreModel.__doc__


def test_the_module_names_are_unchanged_and_lazy_at_the_top():
    assert models.__all__ == OLD_MODULE_ALL
    assert course_lib.ScoreModel is ScoreModel
    assert course_lib.LINEAR_DENSITIES is LINEAR_DENSITIES
    assert (models.THETA, models.PI, models.U) == (ScoreModel.theta, ScoreModel.pi, ScoreModel.u)


def test_each_method_lives_in_one_part():
    """The parts split the class: no public method is defined twice."""
    owners: dict[str, str] = {}
    for part in ScoreModel.__mro__[1:-1]:
        for name in vars(part):
            if not name.startswith("_") and name in OLD_API:
                assert name not in owners, (name, owners.get(name), part.__name__)
                owners[name] = part.__name__
    assert set(owners) == set(OLD_API)
    assert {owners["roc"], owners["auc"], owners["ks"], owners["sample"], owners["tpr"]} == {
        "CurvesPart", "AreasPart", "OptimaPart", "NumericPart", "RatesPart"}


def test_the_parts_share_one_cache_and_one_model():
    b = sympy.Symbol("b")
    model = ScoreModel(2 - 2 * b, 2 * b)
    assert model.auc() == sympy.Rational(5, 6) == model.auc_probability()
    assert model.gini() == 2 * model.auc() - 1
    assert model.ks(sympy.Rational(1, 10)).positive_rate == sympy.Rational(3, 10)
    assert model.roc() is model.roc()  # memoised in the one cache of the model
    assert ("roc",) in model._cache and ("auc",) in model._cache
    assert repr(model) == "ScoreModel(p0=2 - 2*b, p1=2*b, support=(0, 1))"
